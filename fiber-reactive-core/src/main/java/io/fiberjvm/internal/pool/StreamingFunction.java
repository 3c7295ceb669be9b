package io.fiberjvm.internal.pool;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;

import io.fiberjvm.FiberException;
import io.fiberjvm.FiberFunction;

/**
 * What {@code flatMap} ships: the user's function, whose result a worker streams back element by element
 * instead of sending it as one value. A worker knows a streaming task by this wrapper.
 */
final class StreamingFunction implements FiberFunction<Object, Publisher<?>> {

	private static final long serialVersionUID = 1L;

	/** The user's function, which is serializable: its declared type is the one it is called through. */
	private final Function<@Nullable Object, ?> fn;

	@SuppressWarnings("unchecked")
	StreamingFunction(FiberFunction<?, ?> fn) {
		this.fn = (Function<@Nullable Object, ?>) (Function<?, ?>) fn;
	}

	/** The task's elements; fails naming what the function returned when that is not a {@code Publisher}. */
	@Override
	public Publisher<?> apply(@Nullable Object arg) {
		Object elements = fn.apply(arg);
		if (elements instanceof Publisher<?> publisher) {
			return publisher;
		}
		throw new FiberException("a flatMap function must return a Publisher (a Flux or a Mono) of the task's elements, not "
				+ (elements == null ? "null" : "a " + elements.getClass().getName()));
	}
}
