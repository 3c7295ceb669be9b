package io.fiberjvm.manager;

import java.util.Map;

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

	SharedMap(ManagerSession.Shared shared, String name) {
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
	public Mono<V> compute(K key, FiberBiFunction<? super K, ? super V, ? extends V> remapping) {
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

		public V get(K key) {
			return map.get(key).block(BLOCKING_WAIT);
		}

		public V put(K key, V value) {
			return map.put(key, value).block(BLOCKING_WAIT);
		}

		public V remove(K key) {
			return map.remove(key).block(BLOCKING_WAIT);
		}

		public int size() {
			return map.size().block(BLOCKING_WAIT);
		}

		public Map<K, V> snapshot() {
			return map.snapshot().block(BLOCKING_WAIT);
		}

		public V compute(K key, FiberBiFunction<? super K, ? super V, ? extends V> remapping) {
			return map.compute(key, remapping).block(BLOCKING_WAIT);
		}
	}
}
