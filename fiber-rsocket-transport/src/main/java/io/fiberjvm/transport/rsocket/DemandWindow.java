package io.fiberjvm.transport.rsocket;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Payloads of a stream or channel asked for as their receiver asks, but never more than a window at a time.
 *
 * <p>A receiver that asks without bound (a manager's session, a pool's results) would otherwise let the sender
 * queue every part of a large datum at once, ahead of everything else the connection carries, keep-alives
 * included: a gigabyte takes longer to drain than a keep-alive may wait. While the receiver asks for no more
 * than the window its requests pass as they are; beyond it, the window is topped up once half of it has
 * arrived, so an unbounded receiver costs one request frame per half window, not one per payload.
 */
final class DemandWindow<T> implements CoreSubscriber<T>, Subscription {

	private final CoreSubscriber<? super T> downstream;
	private final long window;

	private volatile @Nullable Subscription upstream;
	// Guarded by this: what the receiver still wants, and what was asked of the sender and has not arrived.
	private long wanted;
	private long outstanding;

	private DemandWindow(CoreSubscriber<? super T> downstream, int window) {
		this.downstream = downstream;
		this.window = window;
	}

	/** {@code source}, asked for at most {@code window} elements ahead of what has arrived. */
	static <T> Flux<T> of(Flux<T> source, int window) {
		if (window < 2) {
			throw new IllegalArgumentException("a window of " + window + " payloads is too small; it takes at least 2");
		}
		return Flux.from(subscriber -> source.subscribe(new DemandWindow<T>(Operators.toCoreSubscriber(subscriber), window)));
	}

	@Override
	public Context currentContext() {
		return downstream.currentContext();
	}

	@Override
	public void onSubscribe(Subscription subscription) {
		if (Operators.validate(upstream, subscription)) {
			upstream = subscription;
			downstream.onSubscribe(this);
		}
	}

	@Override
	public void request(long n) {
		if (Operators.validate(n)) {
			synchronized (this) {
				wanted = Operators.addCap(wanted, n);
			}
			refill();
		}
	}

	@Override
	public void cancel() {
		Subscription subscription = upstream;
		if (subscription != null) {
			subscription.cancel();
		}
	}

	@Override
	public void onNext(T item) {
		synchronized (this) {
			outstanding = Math.max(0, outstanding - 1);
			if (wanted != Long.MAX_VALUE) {
				wanted = Math.max(0, wanted - 1);
			}
		}
		downstream.onNext(item);
		refill();
	}

	@Override
	public void onError(Throwable error) {
		downstream.onError(error);
	}

	@Override
	public void onComplete() {
		downstream.onComplete();
	}

	/** Asks the sender for what the receiver wants, within the window; outside the lock, since data may follow at once. */
	private void refill() {
		Subscription subscription = upstream;
		if (subscription == null) {
			return;
		}
		long more;
		synchronized (this) {
			long target = Math.min(wanted, window);
			more = target - outstanding;
			if (more <= 0 || (target == window && outstanding > window / 2)) {
				return;
			}
			outstanding += more;
		}
		subscription.request(more);
	}
}
