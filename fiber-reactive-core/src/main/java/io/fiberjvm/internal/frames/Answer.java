package io.fiberjvm.internal.frames;

import org.jspecify.annotations.Nullable;

/**
 * The answer to one task or call, as pools' result frames and managers' answers both carry it: a value, or an
 * encoded remote error.
 *
 * @param id the task attempt's or call's id
 * @param failed whether {@code bytes} is an error as {@link io.fiberjvm.RemoteException#encode} wrote it, in UTF-8
 * @param bytes the value's bytes ({@code null} for a null value), or the error
 */
public record Answer(long id, boolean failed, byte @Nullable [] bytes) {

	/** A failed answer carrying {@code error}, which {@link io.fiberjvm.RemoteException#encode} wrote. */
	public static Answer failure(long id, String error) {
		return new Answer(id, true, error.getBytes(java.nio.charset.StandardCharsets.UTF_8));
	}

	/** The error of a failed answer, as text. */
	public String error() {
		return bytes == null ? "" : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
	}

	/** The bytes this answer takes in a frame. */
	int size() {
		return 8 + 1 + FrameWriter.sizeOf(bytes);
	}

	/** The bytes an answer of {@code valueBytes} takes. */
	public static int sizeFor(byte @Nullable [] valueBytes) {
		return 8 + 1 + FrameWriter.sizeOf(valueBytes);
	}

	void write(FrameWriter out) {
		out.putLong(id).putByte(failed ? 1 : 0).putBytes(bytes);
	}

	static Answer read(FrameReader in) {
		long id = in.readLong();
		byte failed = in.readByte();
		if (failed != 0 && failed != 1) {
			throw in.malformed("an answer flag of " + failed);
		}
		return new Answer(id, failed == 1, in.readBytes());
	}
}
