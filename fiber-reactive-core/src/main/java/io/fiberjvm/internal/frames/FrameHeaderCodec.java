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
		checkLength(frame.length);
		return kind(frame[0], frame.length);
	}

	/** Fails naming the frame when a frame of {@code size} bytes cannot hold its header. */
	static void checkLength(int size) {
		if (size < SIZE) {
			throw new CodecException("a frame of " + size + " bytes is shorter than its " + SIZE + "-byte header");
		}
	}

	/** The kind {@code code} names, at the start of a frame of {@code size} bytes; fails naming the frame when it is none. */
	static FrameKind kind(byte code, int size) {
		FrameKind kind = FrameKind.of(code);
		if (kind == null) {
			throw new CodecException("a frame of " + size + " bytes starts with " + code + ", which is no frame kind");
		}
		return kind;
	}

	/** The flags of {@code frame}, whose header has been checked. */
	static int flags(byte[] frame) {
		return frame[1] & 0xff;
	}

	/** Fails unless {@code frame} is of {@code expected} kind, naming both. */
	static void check(byte[] frame, FrameKind expected) {
		kind(frame);
		check(frame[0], frame.length, expected);
	}

	/** Fails naming the frame when {@code flags} has one outside {@code known}, the flags its kind knows. */
	static void checkFlags(int flags, int known, FrameKind kind, int size) {
		if ((flags & ~known) != 0) {
			throw malformed(kind, size, "flags " + Integer.toBinaryString(flags) + " it does not know");
		}
	}

	/** The refusal of a malformed frame of {@code kind} and {@code size} bytes, saying what is wrong with it. */
	static CodecException malformed(FrameKind kind, int size, String detail) {
		return new CodecException("malformed " + kind.description() + " of " + size + " bytes: " + detail);
	}

	/** Fails unless {@code code}, at the start of a frame of {@code size} bytes, names {@code expected}, naming both. */
	static void check(byte code, int size, FrameKind expected) {
		FrameKind kind = kind(code, size);
		if (kind != expected) {
			throw new CodecException("expected a " + expected.description() + ", got a " + kind.description() + " of "
					+ size + " bytes");
		}
	}
}
