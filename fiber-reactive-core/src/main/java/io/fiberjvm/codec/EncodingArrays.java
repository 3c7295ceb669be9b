package io.fiberjvm.codec;

import java.lang.ref.SoftReference;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The arrays large values are encoded into, given back once nothing reads them any more and lent again to the next
 * encoding of the same size. A new array of tens of MiB is zeroed by the JVM before it is written, often on memory
 * the heap has only just grown into, which the kernel faults in page by page: a value encoded into one given back
 * is written once, into memory already there. Such values recur in the programs this serves (a policy's weights, a
 * batch of observations, the same shape every iteration).
 *
 * <p>Only arrays lent here come back: giving back any other is ignored, so a caller's own array is never
 * written over. At most {@link #KEPT} arrays wait, held softly, so the collector takes them when memory runs
 * short. Thread-safe.
 */
final class EncodingArrays {

	/** Arrays from this size on are lent and taken back. */
	static final int LARGE = 1 << 20;
	/** Arrays kept for reuse at once. */
	static final int KEPT = 4;

	/** Arrays lent and not given back: only those are taken back. */
	private final Map<byte[], Boolean> lent = Collections.synchronizedMap(new WeakHashMap<>());
	private final Map<Integer, ArrayDeque<SoftReference<byte[]>>> kept = new LinkedHashMap<>();
	private int keptCount;

	/**
	 * An array of exactly {@code size} bytes, one given back when there is one, with whatever it held; null below
	 * {@link #LARGE}, where a new array made and filled in one step (not zeroed first) costs less.
	 */
	byte @Nullable [] take(int size) {
		if (size < LARGE) {
			return null;
		}
		byte[] array = null;
		synchronized (kept) {
			ArrayDeque<SoftReference<byte[]>> ofSize = kept.get(size);
			SoftReference<byte[]> next;
			while (array == null && ofSize != null && (next = ofSize.poll()) != null) {
				array = next.get();
				keptCount--;
			}
			if (ofSize != null && ofSize.isEmpty()) {
				kept.remove(size);
			}
		}
		if (array == null) {
			array = new byte[size];
		}
		lent.put(array, Boolean.TRUE);
		return array;
	}

	/**
	 * Takes {@code array} back for reuse if it was lent here; the caller must hold the only remaining use of it, and
	 * let it go.
	 */
	void giveBack(byte[] array) {
		// Only large arrays are lent: a small one is not looked up, which would cost a lock and its identity hash.
		if (array.length < LARGE || lent.remove(array) == null) {
			return;
		}
		synchronized (kept) {
			if (keptCount >= KEPT) {
				// Make room: the size kept longest goes first.
				Map.Entry<Integer, ArrayDeque<SoftReference<byte[]>>> oldest = kept.entrySet().iterator().next();
				oldest.getValue().poll();
				keptCount--;
				if (oldest.getValue().isEmpty()) {
					kept.remove(oldest.getKey());
				}
			}
			kept.computeIfAbsent(array.length, size -> new ArrayDeque<>()).add(new SoftReference<>(array));
			keptCount++;
		}
	}
}
