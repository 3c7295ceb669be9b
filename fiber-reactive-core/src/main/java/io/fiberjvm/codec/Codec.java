package io.fiberjvm.codec;

import java.util.List;

/**
 * Turns values into bytes and back.
 *
 * <p>A run's processes share one codec, {@link ShippedValues}; this interface is what the transport's typed
 * routes need of it. Implementations are thread-safe. A failure in either direction is a {@link CodecException}
 * that names the type; it never returns a partial value.
 */
public interface Codec {

	/** Writes {@code value}. */
	byte[] encode(Object value);

	/** Reads bytes written by {@link #encode} as {@code type}. */
	<T> T decode(byte[] bytes, Class<T> type);

	/** The run's codec with the built-in allow-list alone, resolving no handles. */
	static Codec standard() {
		return new ShippedValues(List.of());
	}
}
