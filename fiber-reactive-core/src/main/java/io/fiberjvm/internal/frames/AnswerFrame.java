package io.fiberjvm.internal.frames;

/** The answer to one manager call or shared-object operation. */
public final class AnswerFrame {

	private AnswerFrame() {
	}

	public static byte[] encode(Answer answer) {
		byte[] allow = FrameWriter.utf8(answer.allow());
		FrameWriter out = FrameWriter.of(FrameKind.ANSWER, 0, answer.size(allow));
		answer.write(out, allow);
		return out.array();
	}

	public static Answer decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ANSWER);
		Answer answer = Answer.read(in);
		in.end();
		return answer;
	}
}
