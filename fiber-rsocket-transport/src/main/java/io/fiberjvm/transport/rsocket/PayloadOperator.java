package io.fiberjvm.transport.rsocket;

import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * A subscriber that is its receiver's subscription too, as the operators between Fiber's data and RSocket's
 * payloads are ({@link Splitter}, {@link Joiner}): it passes its receiver's context up and hands itself down
 * once subscribed; what it asks of its source is its own affair.
 *
 * @param <I> what it receives
 * @param <O> what it passes on
 */
abstract class PayloadOperator<I, O> implements CoreSubscriber<I>, Subscription {

	final Subscriber<? super O> downstream;
	private volatile @Nullable Subscription upstream;

	PayloadOperator(Subscriber<? super O> downstream) {
		this.downstream = downstream;
	}

	@Override
	public final Context currentContext() {
		return downstream instanceof CoreSubscriber<?> core ? core.currentContext() : Context.empty();
	}

	@Override
	public final void onSubscribe(Subscription subscription) {
		if (Operators.validate(upstream, subscription)) {
			upstream = subscription;
			downstream.onSubscribe(this);
		}
	}

	/** The source's subscription, which is there once the source has subscribed this. */
	final Subscription source() {
		return Objects.requireNonNull(upstream, "subscribed");
	}

	/** Cancels the source, when it has subscribed this. */
	final void cancelSource() {
		Subscription subscription = upstream;
		if (subscription != null) {
			subscription.cancel();
		}
	}
}
