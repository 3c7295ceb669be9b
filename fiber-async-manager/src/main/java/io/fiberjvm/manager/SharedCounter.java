package io.fiberjvm.manager;

import reactor.core.publisher.Mono;

/** A long counter hosted by a manager, starting at 0, reachable from every process it is handed to; each operation is atomic. */
public final class SharedCounter extends SharedObject {

	private static final long serialVersionUID = 1L;

	/** The kind's name in routes. */
	static final String KIND = "counter";

	SharedCounter(SharedAddress shared, String name) {
		super(shared, KIND, name);
	}

	public Mono<Long> get() {
		return call("get").cast(Long.class);
	}

	public Mono<Long> addAndGet(long delta) {
		return call("addAndGet", delta).cast(Long.class);
	}

	public Mono<Long> incrementAndGet() {
		return addAndGet(1);
	}

	public Mono<Boolean> compareAndSet(long expect, long update) {
		return call("compareAndSet", expect, update).cast(Boolean.class);
	}

	/** The same counter, each operation waiting for its answer. */
	public Blocking blocking() {
		return new Blocking(this);
	}

	/** A {@link SharedCounter} whose operations wait for their answers. */
	public static final class Blocking {

		private final SharedCounter counter;

		Blocking(SharedCounter counter) {
			this.counter = counter;
		}

		public long get() {
			return awaitValue(counter.get());
		}

		public long incrementAndGet() {
			return awaitValue(counter.incrementAndGet());
		}

		public long addAndGet(long delta) {
			return awaitValue(counter.addAndGet(delta));
		}
	}
}
