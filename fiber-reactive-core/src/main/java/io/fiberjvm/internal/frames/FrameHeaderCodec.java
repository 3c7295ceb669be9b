package io.fiberjvm.internal.frames;

import io.fiberjvm.codec.CodecException;

/**
 * The header every frame starts with: its {@link FrameKind} and a byte of flags whose meaning is the kind's.
 */
public final class FrameHeaderCodec {

	/** Bytes of the header. */
	public static final int SIZE = 2;

	private FrameHeaderCodec() {
	}

	/** The kind of {@code frame}; fails naming the frame when it has no header or its first byte is no kind. */
	public static FrameKind kind(byte[] frame) {
		if (frame.length < SIZE) {
			throw new CodecException("a frame of " + frame.length + " bytes is shorter than its " + SIZE + "-byte header");
		}
		FrameKind kind = FrameKind.of(frame[0]);
		if (kind == null) {
			throw new CodecException("a frame of " + frame.length + " bytes starts with " + frame[0] + ", which is no frame kind");
		}
		return kind;
	}

	/** The flags of {@code frame}, whose header has been checked. */
	static int flags(byte[] frame) {
		return frame[1] & 0xff;
	}

	/** Fails unless {@code frame} is of {@code expected} kind, naming both. */
	static void check(byte[] frame, FrameKind expected) {
		FrameKind kind = kind(frame);
		if (kind != expected) {
			throw new CodecException("expected a " + expected.description() + ", got a " + kind.description() + " of "
					+ frame.length + " bytes");
		}
	}
}
