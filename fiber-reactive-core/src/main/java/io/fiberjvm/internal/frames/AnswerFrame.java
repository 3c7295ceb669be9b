package io.fiberjvm.internal.frames;

/** The answer to one manager call or shared-object operation. */
public final class AnswerFrame {

	private AnswerFrame() {
	}

	/**
	 * The bytes in front of an answer's value in its frame: a value written with this much room
	 * ({@link io.fiberjvm.codec.ShippedValues#writeAfter}) becomes the frame without being copied.
	 */
	public static final int ROOM = FrameHeaderCodec.SIZE + Answer.HEAD;

	public static byte[] encode(Answer answer) {
		FrameWriter head = FrameWriter.inFront(FrameKind.ANSWER, 0, answer.value(), ROOM);
		if (head != null) {
			answer.writeHead(head);
			return head.array();
		}
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
