package io.fiberjvm.manager;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberFunction;

/** One value hosted by a manager (empty until set), reachable from every process it is handed to; each operation is atomic. */
public final class SharedValue<T> extends SharedObject {

	private static final long serialVersionUID = 1L;

	/** The kind's name in routes. */
	static final String KIND = "value";

	SharedValue(SharedAddress shared, String name) {
		super(shared, KIND, name);
	}

	@SuppressWarnings("unchecked")
	public Mono<T> get() {
		return call("get").map(v -> (T) v);
	}

	/** Sets the value; emits the previous one, or completes empty if there was none. */
	@SuppressWarnings("unchecked")
	public Mono<T> set(T value) {
		return call("set", value).map(v -> (T) v);
	}

	/** Sets {@code update} if the value equals {@code expect}; emits whether it did. */
	public Mono<Boolean> compareAndSet(T expect, T update) {
		return call("compareAndSet", expect, update).cast(Boolean.class);
	}

	/** Replaces the value with {@code fn(value)} in the manager, atomically; emits the new value. The function is shipped. */
	@SuppressWarnings("unchecked")
	public Mono<T> update(FiberFunction<? super @Nullable T, ? extends @Nullable T> fn) {
		return call("update", fn).map(v -> (T) v);
	}

	/** The same value, each operation waiting for its answer. */
	public Blocking<T> blocking() {
		return new Blocking<>(this);
	}

	/** A {@link SharedValue} whose operations wait for their answers. */
	public static final class Blocking<T> {

		private final SharedValue<T> value;

		Blocking(SharedValue<T> value) {
			this.value = value;
		}

		/** The value, or null when none was set. */
		public @Nullable T get() {
			return await(value.get());
		}

		/** Sets the value; the previous one, or null. */
		public @Nullable T set(T v) {
			return await(value.set(v));
		}

		/** The new value, or null when the function made none. */
		public @Nullable T update(FiberFunction<? super @Nullable T, ? extends @Nullable T> fn) {
			return await(value.update(fn));
		}
	}
}
