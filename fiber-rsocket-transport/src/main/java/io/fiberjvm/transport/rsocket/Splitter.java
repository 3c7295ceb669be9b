package io.fiberjvm.transport.rsocket;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.rsocket.Payload;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import reactor.core.publisher.Operators;

/**
 * Data out as payloads, a large datum as its parts ({@link Parts#out}): the source is asked for one datum at a
 * time, when the receiver wants a payload and every part of the last datum has gone. {@link Parts#tracked}
 * payloads wait while {@link Parts#UNWRITTEN} bytes of them are with the transport and not yet written, however
 * much the receiver asks for. One drain loop, entered by one thread at a time, does all the work, so requests,
 * data and cancels may come from any thread.
 */
final class Splitter extends PayloadOperator<byte[], Payload> {

	/** What a payload copied into pooled memory as it is made signals: nothing. */
	private static final Runnable NOT_TRACKED = () -> { };

	private final String route;
	private final int maxPayloadSize;
	private final AtomicLong requested = new AtomicLong();
	private final AtomicInteger wip = new AtomicInteger();
	// Bytes of large payloads handed to the transport and not yet written.
	private final AtomicLong unwritten = new AtomicLong();

	private volatile byte @Nullable [] arrived;
	private volatile boolean done;
	private volatile @Nullable Throwable error;
	private volatile boolean cancelled;

	// Touched only inside the drain loop.
	private byte @Nullable [] current;
	private int next;
	private boolean asked;

	Splitter(Subscriber<? super Payload> downstream, String route, int maxPayloadSize) {
		super(downstream);
		this.route = route;
		this.maxPayloadSize = maxPayloadSize;
	}

	@Override
	public void request(long n) {
		if (Operators.validate(n)) {
			requested.getAndUpdate(current -> Operators.addCap(current, n));
			drain();
		}
	}

	@Override
	public void cancel() {
		cancelled = true;
		cancelSource();
	}

	@Override
	public void onNext(byte[] data) {
		arrived = data;
		drain();
	}

	@Override
	public void onComplete() {
		done = true;
		drain();
	}

	@Override
	public void onError(Throwable failure) {
		error = failure;
		done = true;
		drain();
	}

	/** A large payload's data is written (or dropped): room for the next. */
	private void written(int size) {
		unwritten.addAndGet(-size);
		drain();
	}

	private void drain() {
		if (wip.getAndIncrement() != 0) {
			return;
		}
		int missed = 1;
		do {
			long wanted = requested.get();
			long sent = 0;
			while (true) {
				if (cancelled) {
					// Nothing more goes out; the data need not stay reachable.
					current = null;
					arrived = null;
					break;
				}
				byte[] data = current;
				if (data != null && next < Parts.count(data.length)) {
					int size = Parts.size(data, next);
					boolean tracked = Parts.tracked(size);
					long queued = unwritten.get();
					if (sent == wanted || (tracked && queued > 0 && queued + size > Parts.UNWRITTEN)) {
						break;
					}
					Payload payload;
					try {
						payload = Parts.payload(data, next, route, maxPayloadSize, tracked ? () -> written(size) : NOT_TRACKED);
					}
					catch (RuntimeException tooLarge) {
						cancel();
						downstream.onError(tooLarge);
						return;
					}
					if (tracked) {
						unwritten.addAndGet(size);
					}
					next++;
					sent++;
					downstream.onNext(payload);
					continue;
				}
				// Read before the datum: an end seen first means every datum before it has arrived.
				boolean ended = done;
				byte[] fresh = arrived;
				if (fresh != null) {
					arrived = null;
					asked = false;
					current = fresh;
					next = 0;
					continue;
				}
				current = null;
				if (ended) {
					Throwable failure = error;
					cancelled = true;
					if (failure != null) {
						downstream.onError(failure);
					}
					else {
						downstream.onComplete();
					}
					return;
				}
				if (sent == wanted || asked) {
					break;
				}
				asked = true;
				source().request(1);
			}
			if (sent != 0) {
				long produced = sent;
				requested.getAndUpdate(r -> r == Long.MAX_VALUE ? r : r - produced);
			}
			missed = wip.addAndGet(-missed);
		}
		while (missed != 0);
	}
}
