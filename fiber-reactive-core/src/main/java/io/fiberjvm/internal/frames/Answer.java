package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.jspecify.annotations.Nullable;

/**
 * The answer to one task or call, as pools' result frames and managers' answers both carry it: a value, or an
 * encoded remote error. An answer read from a frame holds a view of the frame's bytes, not a copy.
 *
 * @param id the task attempt's or call's id
 * @param failed whether {@code value} is an error as {@link io.fiberjvm.RemoteException#encode} wrote it, in UTF-8
 * @param value the value's bytes ({@code null} for a null value), or the error
 */
public record Answer(long id, boolean failed, @Nullable ByteBuffer value) {

	/** The bytes of an answer in front of its value: its id, flag and length. */
	static final int HEAD = 8 + 1 + 4;

	/** An answer carrying a value's bytes ({@code null} for a null value). */
	public static Answer of(long id, byte @Nullable [] value) {
		return new Answer(id, false, value == null ? null : ByteBuffer.wrap(value));
	}

	/** A failed answer carrying {@code error}, which {@link io.fiberjvm.RemoteException#encode} wrote. */
	public static Answer failure(long id, String error) {
		return new Answer(id, true, ByteBuffer.wrap(error.getBytes(StandardCharsets.UTF_8)));
	}

	/** The error of a failed answer, as text. */
	public String error() {
		return value == null ? "" : StandardCharsets.UTF_8.decode(value.duplicate()).toString();
	}

	/** The bytes this answer takes in a frame. */
	int size() {
		return 8 + 1 + FrameWriter.sizeOf(value);
	}

	/** The bytes of the value or error, or 0 for a null value. */
	public int valueBytes() {
		return value == null ? 0 : value.remaining();
	}

	void write(FrameWriter out) {
		out.putLong(id).putByte(failed ? 1 : 0).putBytes(value);
	}

	/** Writes what comes before the value, for a frame {@link FrameWriter#inFront} of it. */
	void writeHead(FrameWriter out) {
		out.putLong(id).putByte(failed ? 1 : 0).putInt(valueBytes());
	}

	static Answer read(FrameReader in) {
		long id = in.readLong();
		byte failed = in.readByte();
		if (failed != 0 && failed != 1) {
			throw in.malformed("an answer flag of " + failed);
		}
		return new Answer(id, failed == 1, in.readSlice());
	}
}
