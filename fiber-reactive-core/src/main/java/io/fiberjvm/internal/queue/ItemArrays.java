package io.fiberjvm.internal.queue;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.frames.QueueItem;

/**
 * The arrays one producer session encodes its items into, taken back once the batch they went in has been sent, and
 * lent again for items of the same size. A producer sends a steady stream of items, most often of one size (a
 * step's observation, a rollout of a fixed length): each item is copied into an array at {@code send} so that the
 * producer may change its own afterwards, and a new array each time costs the JVM more than the copy does (zeroing,
 * collections, heap grown page by page). Arrays of the size last given back are kept, up to {@link #KEPT_BYTES} in
 * all, for as long as the session lasts; smaller ones than {@link #SMALLEST} are made new, which costs less than
 * keeping them. Items of several sizes in turn replace each other's arrays, and are written as if none were kept.
 * Thread-safe: items are encoded on the producer's thread and batches given back on the transport's.
 */
final class ItemArrays {

	/** Arrays from this size on are kept. */
	static final int SMALLEST = 1024;
	/** The most bytes of arrays kept at once. */
	static final int KEPT_BYTES = 8 << 20;

	private final ArrayDeque<byte[]> kept = new ArrayDeque<>();
	/** The size of the arrays kept. */
	private int size;

	/**
	 * A kept array of exactly {@code size} bytes, with whatever it held, or null when there is none: the item then
	 * goes into a new array, made and filled in one step.
	 */
	byte @Nullable [] take(int size) {
		if (size < SMALLEST) {
			return null;
		}
		synchronized (this) {
			return size == this.size ? kept.poll() : null;
		}
	}

	/**
	 * Keeps the arrays of {@code items}, which the caller made (through {@link #take} or otherwise) and no longer
	 * reads, for the next items of their size; arrays of another size than the last given back replace those kept.
	 */
	void giveBack(List<QueueItem> items) {
		synchronized (this) {
			// Pushed and taken from the front: the array lent next is the one written last, the likeliest in a cache.
			for (QueueItem item : items) {
				ByteBuffer bytes = item.bytes();
				if (bytes == null || !bytes.hasArray() || bytes.array().length < SMALLEST) {
					continue;
				}
				byte[] array = bytes.array();
				if (array.length != size) {
					kept.clear();
					size = array.length;
				}
				if ((long) (kept.size() + 1) * size <= KEPT_BYTES) {
					kept.push(array);
				}
			}
		}
	}
}
