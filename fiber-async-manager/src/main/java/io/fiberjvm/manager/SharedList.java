package io.fiberjvm.manager;

import java.util.List;

import reactor.core.publisher.Mono;

/**
 * A list hosted by a manager, reachable from every process it is handed to. Each operation is atomic;
 * items travel as copies.
 */
public final class SharedList<T> extends SharedObject {

	private static final long serialVersionUID = 1L;

	/** The kind's name in routes. */
	static final String KIND = "list";

	SharedList(SharedAddress shared, String name) {
		super(shared, KIND, name);
	}

	/** Appends {@code item}; emits the list's new size. */
	public Mono<Integer> add(T item) {
		return call("add", item).cast(Integer.class);
	}

	@SuppressWarnings("unchecked")
	public Mono<T> get(int index) {
		return call("get", index).map(v -> (T) v);
	}

	/** Replaces the item at {@code index}; emits the one it replaced. */
	@SuppressWarnings("unchecked")
	public Mono<T> set(int index, T item) {
		return call("set", index, item).map(v -> (T) v);
	}

	@SuppressWarnings("unchecked")
	public Mono<T> remove(int index) {
		return call("remove", index).map(v -> (T) v);
	}

	public Mono<Integer> size() {
		return call("size").cast(Integer.class);
	}

	/** A copy of the whole list. */
	@SuppressWarnings("unchecked")
	public Mono<List<T>> snapshot() {
		return call("snapshot").map(l -> (List<T>) l);
	}

	/** The same list, each operation waiting for its answer. */
	public Blocking<T> blocking() {
		return new Blocking<>(this);
	}

	/** A {@link SharedList} whose operations wait for their answers. */
	public static final class Blocking<T> {

		private final SharedList<T> list;

		Blocking(SharedList<T> list) {
			this.list = list;
		}

		public int add(T item) {
			return awaitValue(list.add(item));
		}

		public T get(int index) {
			return awaitValue(list.get(index));
		}

		public int size() {
			return awaitValue(list.size());
		}

		public List<T> snapshot() {
			return awaitValue(list.snapshot());
		}
	}
}
