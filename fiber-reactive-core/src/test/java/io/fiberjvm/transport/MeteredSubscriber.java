package io.fiberjvm.transport;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

import static org.awaitility.Awaitility.await;

/**
 * A subscriber for backpressure tests: it asks for items only when told to, and counts what it asked
 * for and what it got.
 */
public final class MeteredSubscriber<T> extends BaseSubscriber<T> {

	private final long initial;
	private final AtomicLong requested = new AtomicLong();
	private final AtomicLong received = new AtomicLong();

	public MeteredSubscriber(long initial) {
		this.initial = initial;
	}

	@Override
	protected void hookOnSubscribe(Subscription subscription) {
		ask(initial);
	}

	@Override
	protected void hookOnNext(T value) {
		received.incrementAndGet();
	}

	/** Asks for {@code n} more. */
	public void ask(long n) {
		requested.addAndGet(n);
		request(n);
	}

	/** Everything asked for so far. */
	public long requested() {
		return requested.get();
	}

	/** Everything received so far. */
	public long received() {
		return received.get();
	}

	/** Waits until everything asked for has arrived. */
	public void awaitAllRequested(Duration atMost) {
		long target = requested.get();
		await().atMost(atMost).until(() -> received.get() == target);
	}
}
