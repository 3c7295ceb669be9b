package io.fiberjvm.internal.frames;

/** A frame that carries nothing: an acknowledgement, or a request whose route says everything. */
public final class EmptyFrame {

	private EmptyFrame() {
	}

	public static byte[] encode() {
		return new byte[] {FrameKind.EMPTY.code(), 0};
	}

	/** Fails unless {@code frame} is an empty frame. */
	public static void check(byte[] frame) {
		FrameReader.open(frame, FrameKind.EMPTY).end();
	}
}
