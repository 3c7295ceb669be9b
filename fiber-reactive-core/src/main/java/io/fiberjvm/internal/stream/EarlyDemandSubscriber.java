package io.fiberjvm.internal.stream;

import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;

/**
 * A subscriber asked for elements by a remote side, which may ask before the publisher has subscribed it (a
 * publisher may call {@code onSubscribe} later, on another thread): what was asked for first is kept and
 * requested once it has. Nothing is requested on subscription otherwise.
 *
 * @param <T> the elements
 */
public abstract class EarlyDemandSubscriber<T> extends BaseSubscriber<T> {

	private long early;
	private boolean subscribed;

	@Override
	protected final void hookOnSubscribe(Subscription subscription) {
		long asked;
		synchronized (this) {
			subscribed = true;
			asked = early;
			early = 0;
		}
		if (asked > 0) {
			request(asked);
		}
	}

	/** Requests {@code n} more elements, or keeps them until the publisher subscribes this. */
	protected final void ask(long n) {
		synchronized (this) {
			if (!subscribed) {
				early += n;
				return;
			}
		}
		request(n);
	}
}
