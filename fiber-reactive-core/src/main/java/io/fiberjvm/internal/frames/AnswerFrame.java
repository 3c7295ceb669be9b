package io.fiberjvm.internal.frames;

/** The answer to one manager call or shared-object operation. */
public final class AnswerFrame {

	private AnswerFrame() {
	}

	public static byte[] encode(Answer answer) {
		FrameWriter out = FrameWriter.of(FrameKind.ANSWER, 0, answer.size());
		answer.write(out);
		return out.array();
	}

	public static Answer decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ANSWER);
		Answer answer = Answer.read(in);
		in.end();
		return answer;
	}
}
