package io.fiberjvm.manager;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.ElementsFrame;

/**
 * A call's sequence on its way up from the manager, as fast as the caller asks: each demand is passed on from
 * the object's own executor, so a lazy sequence (an iterator, a stream) is read between the object's other
 * calls, never beside them. Elements go up in batches of what one demand made, at most {@link #BATCH} a frame.
 */
final class StreamOut extends BaseSubscriber<Object> {

	/** Elements a frame carries at most. */
	static final int BATCH = 512;

	private final long call;
	private final String what;
	private final Executor objectCalls;
	private final ShippedValues values;
	private final Consumer<byte[]> up;
	/** Sends the call's end: its error, or null when the sequence completed. */
	private final Consumer<@Nullable Throwable> end;
	private List<byte[]> batch = new ArrayList<>();
	private boolean demanding;

	StreamOut(long call, String what, Executor objectCalls, ShippedValues values, Consumer<byte[]> up,
			Consumer<@Nullable Throwable> end) {
		this.call = call;
		this.what = what;
		this.objectCalls = objectCalls;
		this.values = values;
		this.up = up;
		this.end = end;
	}

	@Override
	protected void hookOnSubscribe(Subscription subscription) {
		// Nothing is made until the caller asks.
	}

	/** The caller wants {@code n} more elements: asked for on the object's executor. */
	void demand(long n) {
		objectCalls.execute(() -> {
			synchronized (this) {
				demanding = true;
			}
			try {
				request(n);
			}
			finally {
				synchronized (this) {
					demanding = false;
				}
				flush();
			}
		});
	}

	@Override
	protected void hookOnNext(Object element) {
		// A sequence's elements are never null.
		byte[] bytes = java.util.Objects.requireNonNull(values.write(element, what));
		boolean now;
		synchronized (this) {
			batch.add(bytes);
			// What one demand makes at once goes up together; an element made later goes up at once.
			now = !demanding || batch.size() >= BATCH;
		}
		if (now) {
			flush();
		}
	}

	@Override
	protected void hookOnComplete() {
		flush();
		end.accept(null);
	}

	@Override
	protected void hookOnError(Throwable error) {
		flush();
		end.accept(error);
	}

	private void flush() {
		List<byte[]> full;
		synchronized (this) {
			if (batch.isEmpty()) {
				return;
			}
			full = batch;
			batch = new ArrayList<>();
		}
		up.accept(new ElementsFrame(call, full).encode());
	}
}
