package io.fiberjvm.manager;

import java.util.ArrayList;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

/** What a manager makes of a method's sequence result: the publisher its elements are read from. */
final class Sequences {

	private Sequences() {
	}

	/**
	 * A sequence result as a publisher: a publisher, an iterable or a stream read lazily; a collection or an array
	 * copied now, as the call left it, so later calls do not change what the caller receives; null is empty.
	 */
	@SuppressWarnings("unchecked")
	static Flux<Object> of(@Nullable Object result) {
		if (result instanceof java.util.Collection<?> collection) {
			return Flux.fromIterable(new ArrayList<Object>(collection));
		}
		if (result instanceof Publisher<?> publisher) {
			return Flux.from((Publisher<Object>) publisher);
		}
		if (result instanceof Iterable<?> iterable) {
			return Flux.fromIterable((Iterable<Object>) iterable);
		}
		if (result instanceof Stream<?> stream) {
			return Flux.fromStream((Stream<Object>) stream);
		}
		if (result != null && result.getClass().isArray()) {
			Object array = result instanceof Object[] objects ? objects.clone() : copyOf(result);
			return Flux.range(0, java.lang.reflect.Array.getLength(array)).map(i -> java.lang.reflect.Array.get(array, i));
		}
		return result == null ? Flux.empty() : Flux.just(result);
	}

	/** A copy of a primitive array. */
	private static Object copyOf(Object array) {
		int length = java.lang.reflect.Array.getLength(array);
		Object copy = java.lang.reflect.Array.newInstance(array.getClass().getComponentType(), length);
		System.arraycopy(array, 0, copy, 0, length);
		return copy;
	}
}
