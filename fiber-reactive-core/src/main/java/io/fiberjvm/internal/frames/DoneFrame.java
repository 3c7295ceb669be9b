package io.fiberjvm.internal.frames;

/** A ring member's word to its parent that it has finished its target; it carries nothing else. */
public final class DoneFrame {

	private DoneFrame() {
	}

	public static byte[] encode() {
		return new byte[] {FrameKind.DONE.code(), 0};
	}

	/** Fails unless {@code frame} is a member's end. */
	public static void check(byte[] frame) {
		FrameReader.open(frame, FrameKind.DONE).end();
	}
}
