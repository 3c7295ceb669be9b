package io.fiberjvm.transport;

import java.nio.ByteBuffer;

/**
 * One datum being read by an {@link InboundReader}: its bytes, a run at a time and in order, then what they make.
 *
 * @param <T> what the datum is read as
 */
public interface InboundAssembly<T> {

	/**
	 * The datum's next bytes, from the position to the limit of {@code bytes}: read-only, big-endian, in memory the
	 * transport owns, and not to be kept once this returns.
	 */
	void take(ByteBuffer bytes);

	/** What the datum makes, once all of its bytes were taken; never null. */
	T end();
}
