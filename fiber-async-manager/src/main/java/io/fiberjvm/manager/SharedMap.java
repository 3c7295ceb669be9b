package io.fiberjvm.manager;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberBiFunction;

/**
 * A map hosted by a manager, reachable from every process it is handed to. Each operation is atomic;
 * a sequence of them is not (use {@link #compute} for read-modify-write). Keys and values travel as
 * copies: changing a value you got changes nothing in the manager until you put it back.
 */
public final class SharedMap<K, V> extends SharedObject {

	private static final long serialVersionUID = 1L;

	/** The kind's name in routes. */
	static final String KIND = "map";

	SharedMap(SharedAddress shared, String name) {
		super(shared, KIND, name);
	}

	@SuppressWarnings("unchecked")
	public Mono<V> get(K key) {
		return call("get", key).map(v -> (V) v);
	}

	/** Puts {@code value}; emits the previous value, or completes empty if there was none. */
	@SuppressWarnings("unchecked")
	public Mono<V> put(K key, V value) {
		return call("put", key, value).map(v -> (V) v);
	}

	@SuppressWarnings("unchecked")
	public Mono<V> putIfAbsent(K key, V value) {
		return call("putIfAbsent", key, value).map(v -> (V) v);
	}

	@SuppressWarnings("unchecked")
	public Mono<V> remove(K key) {
		return call("remove", key).map(v -> (V) v);
	}

	public Mono<Boolean> containsKey(K key) {
		return call("containsKey", key).cast(Boolean.class);
	}

	public Mono<Integer> size() {
		return call("size").cast(Integer.class);
	}

	/** A copy of the whole map, in insertion order. */
	@SuppressWarnings("unchecked")
	public Mono<Map<K, V>> snapshot() {
		return call("snapshot").map(m -> (Map<K, V>) m);
	}

	/**
	 * Runs {@code remapping} on the key's current value (or null) in the manager, atomically, and keeps
	 * what it returns (null removes the key); emits the new value. The function is shipped.
	 */
	@SuppressWarnings("unchecked")
	public Mono<V> compute(K key, FiberBiFunction<? super K, ? super @Nullable V, ? extends @Nullable V> remapping) {
		return call("compute", key, remapping).map(v -> (V) v);
	}

	public Mono<Void> clear() {
		return call("clear").then();
	}

	/** The same map, each operation waiting for its answer: a thin convenience at the edge. */
	public Blocking<K, V> blocking() {
		return new Blocking<>(this);
	}

	/** A {@link SharedMap} whose operations wait for their answers. */
	public static final class Blocking<K, V> {

		private final SharedMap<K, V> map;

		Blocking(SharedMap<K, V> map) {
			this.map = map;
		}

		/** The value, or null when there is none. */
		public @Nullable V get(K key) {
			return await(map.get(key));
		}

		/** Puts {@code value}; the previous value, or null. */
		public @Nullable V put(K key, V value) {
			return await(map.put(key, value));
		}

		/** Removes the value; it, or null when there was none. */
		public @Nullable V remove(K key) {
			return await(map.remove(key));
		}

		public int size() {
			return awaitValue(map.size());
		}

		public Map<K, V> snapshot() {
			return awaitValue(map.snapshot());
		}

		/** The new value, or null when the function removed it. */
		public @Nullable V compute(K key, FiberBiFunction<? super K, ? super @Nullable V, ? extends @Nullable V> remapping) {
			return await(map.compute(key, remapping));
		}
	}
}
