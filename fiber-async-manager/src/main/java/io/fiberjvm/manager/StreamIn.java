package io.fiberjvm.manager;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.LongConsumer;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.stream.SequenceOut;

/**
 * A call's sequence as its caller sees it: a {@code Flux} whose demand goes to the manager as it is asked for
 * (at most {@link SequenceOut#PREFETCH} elements ahead), whose elements arrive in order, and which ends when the call's
 * answer does. It may be subscribed once: the elements are made once.
 */
final class StreamIn {

	private final String what;
	/** How errors name an element: made once, not for every element. */
	private final String element;
	private final ShippedValues values;
	private final LongConsumer demand;
	private final Runnable cancel;
	private @Nullable FluxSink<Object> sink;
	private @Nullable Throwable error;
	private boolean completed;

	StreamIn(String what, ShippedValues values, LongConsumer demand, Runnable cancel) {
		this.what = what;
		this.element = "an element of " + what;
		this.values = values;
		this.demand = demand;
		this.cancel = cancel;
	}

	Flux<Object> flux() {
		return Flux.<Object>create(this::attach, FluxSink.OverflowStrategy.BUFFER).limitRate(SequenceOut.PREFETCH);
	}

	private void attach(FluxSink<Object> subscriber) {
		synchronized (this) {
			if (sink != null) {
				subscriber.error(new IllegalStateException(what + " is a stream, made once: subscribe to it once"));
				return;
			}
			sink = subscriber;
		}
		subscriber.onRequest(demand);
		subscriber.onCancel(cancel::run);
		synchronized (this) {
			if (error != null) {
				subscriber.error(error);
			}
			else if (completed) {
				subscriber.complete();
			}
		}
	}

	/** Elements from the manager, in order. */
	void elements(List<ByteBuffer> batch) {
		FluxSink<Object> subscriber;
		synchronized (this) {
			subscriber = sink;
		}
		if (subscriber == null) {
			// Only demand brings elements, and only a subscriber makes demand.
			return;
		}
		for (ByteBuffer element : batch) {
			Object value;
			try {
				value = values.read(element, this.element);
			}
			catch (CodecException e) {
				cancel.run();
				fail(e);
				return;
			}
			if (value != null) {
				subscriber.next(value);
			}
		}
	}

	synchronized void complete() {
		completed = true;
		if (sink != null) {
			sink.complete();
		}
	}

	synchronized void fail(Throwable failure) {
		error = failure;
		if (sink != null) {
			sink.error(failure);
		}
	}
}
