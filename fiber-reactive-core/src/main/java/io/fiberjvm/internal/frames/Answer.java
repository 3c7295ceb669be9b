package io.fiberjvm.internal.frames;

import org.jspecify.annotations.Nullable;

/**
 * The answer to one task or call, as pools' result frames and managers' answers both carry it: a value with
 * the allow-list pattern its reader needs for the value's own class, or an encoded remote error.
 *
 * @param id the task attempt's or call's id
 * @param failed whether {@code bytes} is an error as {@link io.fiberjvm.RemoteException#encode} wrote it, in UTF-8
 * @param allow the pattern naming the value's package, or null when the value needs none
 * @param bytes the value's bytes ({@code null} for a null value), or the error
 */
public record Answer(long id, boolean failed, @Nullable String allow, byte @Nullable [] bytes) {

	/** A failed answer carrying {@code error}, which {@link io.fiberjvm.RemoteException#encode} wrote. */
	public static Answer failure(long id, String error) {
		return new Answer(id, true, null, error.getBytes(java.nio.charset.StandardCharsets.UTF_8));
	}

	/** The error of a failed answer, as text. */
	public String error() {
		return bytes == null ? "" : new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
	}

	/** The bytes this answer takes in a frame. */
	int size(byte @Nullable [] allowUtf8) {
		return 8 + 1 + FrameWriter.sizeOf(allowUtf8) + FrameWriter.sizeOf(bytes);
	}

	/** The bytes an answer of {@code valueBytes} takes at most, with a pattern of a few hundred characters. */
	public static int sizeFor(byte @Nullable [] valueBytes) {
		return 8 + 1 + 4 + 256 + FrameWriter.sizeOf(valueBytes);
	}

	void write(FrameWriter out, byte @Nullable [] allowUtf8) {
		out.putLong(id).putByte(failed ? 1 : 0).putBytes(allowUtf8).putBytes(bytes);
	}

	static Answer read(FrameReader in) {
		long id = in.readLong();
		byte failed = in.readByte();
		if (failed != 0 && failed != 1) {
			throw in.malformed("an answer flag of " + failed);
		}
		String allow = in.readText();
		return new Answer(id, failed == 1, allow, in.readBytes());
	}
}
