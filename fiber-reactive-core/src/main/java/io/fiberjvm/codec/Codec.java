package io.fiberjvm.codec;

import java.lang.reflect.Type;

/**
 * Turns values into bytes and back, for task arguments, results and queue items.
 *
 * <p>Implementations are thread-safe. A failure in either direction is a {@link CodecException}
 * that names the type; it never returns a partial value.
 */
public interface Codec {

	/** Writes {@code value} (which may be {@code null}). */
	byte[] encode(Object value);

	/** Reads bytes written by {@link #encode} as {@code type}. */
	<T> T decode(byte[] bytes, Class<T> type);

	/** Reads bytes as a generic type, for example {@code List<Point>}. */
	<T> T decode(byte[] bytes, Type type);

	/** The default codec: Jackson Smile, a compact binary JSON. */
	static Codec smile() {
		return SmileCodec.INSTANCE;
	}
}
