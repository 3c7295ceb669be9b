package io.fiberjvm.transport.rsocket;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.rsocket.Payload;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import reactor.core.Exceptions;
import reactor.core.publisher.Operators;

import io.fiberjvm.transport.Outbound;

/**
 * Data out as payloads, a large datum as its parts ({@link Parts#out}): the source is asked for one datum at a
 * time, when the receiver wants a payload and every part of the last datum has gone. {@link Parts#tracked}
 * payloads wait while {@link Parts#UNWRITTEN} bytes of them are with the transport and not yet written, however
 * much the receiver asks for. One drain loop, entered by one thread at a time, does all the work, so requests,
 * data and cancels may come from any thread.
 */
final class Splitter extends PayloadOperator<Outbound, Payload> {

	private final String route;
	private final int maxPayloadSize;
	private final AtomicLong requested = new AtomicLong();
	private final AtomicInteger wip = new AtomicInteger();
	// Bytes of large payloads handed to the transport and not yet written.
	private final AtomicLong unwritten = new AtomicLong();

	private volatile @Nullable Outbound arrived;
	private volatile boolean done;
	private volatile @Nullable Throwable error;
	private volatile boolean cancelled;

	// Touched only inside the drain loop.
	/** The current datum, with the count of its parts the transport still holds. */
	private @Nullable Held current;
	/** The current datum's size, asked for once. */
	private int size;
	/** The current datum as one array, when it is too large to be written into pooled memory. */
	private byte @Nullable [] whole;
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
	public void onNext(Outbound data) {
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
	private void written(int bytes) {
		unwritten.addAndGet(-bytes);
		drain();
	}

	/**
	 * Payload {@link #next} of the current datum: a small datum written straight into pooled memory, a larger one
	 * made one array once and sent from it.
	 */
	private Payload payload(Held datum, int partSize) {
		if (next == 0) {
			Frames.checkSize(route, size, maxPayloadSize);
		}
		if (size <= Frames.POOLED_LIMIT) {
			Payload copied = Parts.payload(datum.outbound, size);
			datum.gone();
			return copied;
		}
		byte[] bytes = whole;
		if (bytes == null) {
			bytes = datum.outbound.toArray();
			if (bytes.length != size) {
				throw new IllegalStateException("a datum of " + size + " bytes made an array of " + bytes.length);
			}
			whole = bytes;
		}
		if (Parts.tracked(partSize)) {
			return Parts.payload(bytes, next, () -> {
				written(partSize);
				datum.gone();
			});
		}
		// Copied into pooled memory as it is made.
		Payload copied = Parts.payload(bytes, next, () -> { });
		datum.gone();
		return copied;
	}

	/** How many parts of a datum the transport holds: it is {@link Outbound#released} when the last of them goes. */
	private static final class Held {

		private final Outbound outbound;
		private final AtomicInteger parts;

		Held(Outbound outbound, int parts) {
			this.outbound = outbound;
			this.parts = new AtomicInteger(parts);
		}

		void gone() {
			if (parts.decrementAndGet() == 0) {
				try {
					outbound.released();
				}
				catch (Throwable e) {
					// The maker's own affair: what it does with its bytes cannot fail the stream that sent them.
					Exceptions.throwIfJvmFatal(e);
				}
			}
		}
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
					whole = null;
					arrived = null;
					break;
				}
				Held datum = current;
				if (datum != null && next < Parts.count(size)) {
					int partSize = Parts.size(size, next);
					boolean tracked = Parts.tracked(partSize);
					long queued = unwritten.get();
					if (sent == wanted || (tracked && queued > 0 && queued + partSize > Parts.UNWRITTEN)) {
						break;
					}
					Payload payload;
					try {
						payload = payload(datum, partSize);
					}
					catch (Throwable unsent) {
						// Too large, or a datum that failed to write itself: its channel fails, not the connection.
						cancel();
						downstream.onError(unsent);
						return;
					}
					if (tracked) {
						unwritten.addAndGet(partSize);
					}
					next++;
					sent++;
					downstream.onNext(payload);
					continue;
				}
				// Read before the datum: an end seen first means every datum before it has arrived.
				boolean ended = done;
				Outbound fresh = arrived;
				if (fresh != null) {
					arrived = null;
					asked = false;
					current = null;
					whole = null;
					next = 0;
					try {
						size = fresh.size();
						if (size < 0) {
							throw new IllegalStateException("a datum's size must not be negative: " + size);
						}
						current = new Held(fresh, Parts.count(size));
					}
					catch (Throwable unsized) {
						cancel();
						downstream.onError(unsized);
						return;
					}
					continue;
				}
				current = null;
				whole = null;
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
