package io.fiberjvm.manager;


import reactor.core.publisher.Mono;

/**
 * An unbounded FIFO queue hosted by a manager, reachable from every process it is handed to: each
 * item goes to one taker; {@link #take()} waits for an item. For bounded, streaming queues with
 * backpressure use {@link io.fiberjvm.queue.FiberQueue}.
 */
public final class SharedQueue<T> extends SharedObject {

	private static final long serialVersionUID = 1L;

	/** The kind's name in routes. */
	static final String KIND = "queue";

	SharedQueue(SharedAddress shared, String name) {
		super(shared, KIND, name);
	}

	public Mono<Void> put(T item) {
		return call("put", item).then();
	}

	/** The next item, waiting for one if the queue is empty. */
	@SuppressWarnings("unchecked")
	public Mono<T> take() {
		return call("take").map(v -> (T) v);
	}

	/** The next item, or empty at once if there is none. */
	@SuppressWarnings("unchecked")
	public Mono<T> poll() {
		return call("poll").map(v -> (T) v);
	}

	public Mono<Integer> size() {
		return call("size").cast(Integer.class);
	}

	/** The same queue, each operation waiting for its answer. */
	public Blocking<T> blocking() {
		return new Blocking<>(this);
	}

	/** A {@link SharedQueue} whose operations wait for their answers. */
	public static final class Blocking<T> {

		private final SharedQueue<T> queue;

		Blocking(SharedQueue<T> queue) {
			this.queue = queue;
		}

		public void put(T item) {
			queue.put(item).block(BLOCKING_WAIT);
		}

		/** Waits as long as it takes for an item, like {@link java.util.concurrent.BlockingQueue#take()}. */
		public T take() {
			T item = queue.take().block();
			if (item == null) {
				throw new IllegalStateException(queue + " answered a take with no item; a shared queue holds no nulls");
			}
			return item;
		}
	}
}
