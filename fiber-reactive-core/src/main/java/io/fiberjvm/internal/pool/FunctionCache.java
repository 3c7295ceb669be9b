package io.fiberjvm.internal.pool;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The functions a worker keeps, most recently used last, at most {@link #CAPACITY}. The parent keeps
 * a twin per worker session and applies the same lookups and inserts in the same order (chunks are
 * sent and run in order), so it knows without asking whether the worker still holds a function.
 */
final class FunctionCache<V> {

	static final int CAPACITY = 256;

	private final LinkedHashMap<Long, V> entries = new LinkedHashMap<>(16, 0.75f, true) {
		@Override
		protected boolean removeEldestEntry(Map.Entry<Long, V> eldest) {
			return size() > CAPACITY;
		}
	};

	/** The function held under {@code id}, now the most recently used; {@code null} if not held. */
	@Nullable V get(long id) {
		return entries.get(id);
	}

	/** Holds {@code value} under {@code id}, dropping the least recently used beyond capacity. */
	void put(long id, V value) {
		entries.put(id, value);
	}
}
