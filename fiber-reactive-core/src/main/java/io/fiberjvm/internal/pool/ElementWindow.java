package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The elements of an ordered mapping call from the next to emit to the last submitted, each in the slot of its index
 * modulo the window's size, a power of two.
 *
 * @param <R> the elements' result type
 */
final class ElementWindow<R> {

	private final @Nullable Object[] slots;
	private final int mask;

	ElementWindow(int size) {
		if (Integer.bitCount(size) != 1) {
			throw new IllegalArgumentException("a window's size is a power of two, not " + size);
		}
		this.slots = new Object[size];
		this.mask = size - 1;
	}

	void put(MapElement<R> element) {
		slots[slot(element.description.index())] = element;
	}

	/** The element of {@code index}, or null when its slot is empty. */
	@SuppressWarnings("unchecked")
	@Nullable MapElement<R> get(long index) {
		return (MapElement<R>) slots[slot(index)];
	}

	/** The elements of indexes {@code from} up to {@code to}, taken out. */
	List<MapElement<R>> takeAll(long from, long to) {
		List<MapElement<R>> taken = new ArrayList<>();
		for (long i = from; i != to; i++) {
			MapElement<R> element = take(i);
			if (element != null) {
				taken.add(element);
			}
		}
		return taken;
	}

	/** Empties the slot of {@code index}, giving back what it held. */
	@Nullable MapElement<R> take(long index) {
		MapElement<R> element = get(index);
		slots[slot(index)] = null;
		return element;
	}

	private int slot(long index) {
		return (int) (index & mask);
	}
}
