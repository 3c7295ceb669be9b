package io.fiberjvm.internal.queue;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.internal.frames.CreditFrame;
import io.fiberjvm.internal.frames.QueueItem;
import io.fiberjvm.queue.Delivery;

/**
 * The consumer's side of a queue session: turns the subscriber's demand into credit for the host, hands
 * items to the subscriber on a worker of the chosen scheduler, and acknowledges each one as it hands it to {@code onNext}
 * (or leaves that to the subscriber, through {@link Delivery#ack()}).
 *
 * <p>The host is never credited with more than the subscriber asked for, nor more than {@code prefetch}
 * ahead of what it acknowledged, so every item that arrives can be delivered at once and none waits in
 * a buffer here.
 */
final class Receiver<T, E> {

	private final int prefetch;
	private final Function<QueueItem, T> decode;
	private final boolean manual;
	private final FluxSink<E> sink;
	private final Scheduler.Worker worker;
	private final Sinks.Many<CreditFrame> controls = Sinks.many().unicast().onBackpressureBuffer();
	private final java.util.TreeSet<Long> ackedAhead = new java.util.TreeSet<>();
	private long requested;
	private long emitted;
	private long credited;
	private long acknowledged;
	private long reported;
	private boolean done;

	private Receiver(int prefetch, Function<QueueItem, T> decode, boolean manual, FluxSink<E> sink, Scheduler.Worker worker) {
		this.prefetch = prefetch;
		this.worker = worker;
		this.decode = decode;
		this.manual = manual;
		this.sink = sink;
	}

	/** Items acknowledged as each is handed to {@code onNext}: one handed over never goes back to the queue. */
	static <T> Flux<T> receive(QueueChannel channel, int prefetch, Scheduler scheduler, Function<QueueItem, T> decode) {
		return create(channel, prefetch, scheduler, decode, false);
	}

	/** Items acknowledged by the receiver, through {@link Delivery#ack()}. */
	static <T> Flux<Delivery<T>> receiveManualAck(QueueChannel channel, int prefetch, Scheduler scheduler,
			Function<QueueItem, T> decode) {
		return create(channel, prefetch, scheduler, decode, true);
	}

	private static <T, E> Flux<E> create(QueueChannel channel, int prefetch, Scheduler scheduler,
			Function<QueueItem, T> decode, boolean manual) {
		Objects.requireNonNull(scheduler, "scheduler");
		if (prefetch < 1) {
			throw new IllegalArgumentException("prefetch " + prefetch + " must be at least 1");
		}
		// An in-process host emits under its lock: user code must not run there, so such items always hop.
		Scheduler delivery = scheduler == Schedulers.immediate() && !channel.emitsOutsideLock() ? Schedulers.boundedElastic() : scheduler;
		// ERROR, not BUFFER: credit never exceeds demand, so every item goes straight to onNext.
		return Flux.<E>create(sink -> new Receiver<T, E>(prefetch, decode, manual, sink, delivery.createWorker()).start(channel),
				FluxSink.OverflowStrategy.ERROR);
	}

	private void start(QueueChannel channel) {
		sink.onRequest(this::request);
		sink.onDispose(this::stop);
		channel.receive(controls.asFlux()).subscribe(
				batch -> onWorker(() -> deliver(batch)),
				error -> onWorker(() -> finish(error)),
				() -> onWorker(() -> finish(null)));
	}

	private void onWorker(Runnable task) {
		try {
			worker.schedule(task);
		}
		catch (java.util.concurrent.RejectedExecutionException stopped) {
			// the subscriber has gone; the host takes back whatever was not acknowledged
		}
	}

	private synchronized void request(long n) {
		requested = requested + n < 0 ? Long.MAX_VALUE : requested + n;
		sendControl();
	}

	/**
	 * Credits the host up to the subscriber's demand, and at most {@code prefetch} ahead of what is
	 * acknowledged; carries the acknowledgements made since the last control.
	 */
	private synchronized void sendControl() {
		if (done) {
			return;
		}
		long target = Math.min(requested, acknowledged + prefetch < 0 ? Long.MAX_VALUE : acknowledged + prefetch);
		long credit = Math.max(0, target - credited);
		long acks = acknowledged - reported;
		if (credit > 0 || acks > 0) {
			credited += credit;
			reported = acknowledged;
			controls.tryEmitNext(new CreditFrame(credit, acks, heldBytes()));
		}
	}

	/**
	 * What this consumer holds unacknowledged beyond its first item: 64 MiB when items are acknowledged as they are
	 * handed over, so a prefetch of large items does not fill the JVM; without limit when the receiver acknowledges
	 * them itself, since one that waits for several before acknowledging any would otherwise wait for ever.
	 */
	private long heldBytes() {
		return manual ? Long.MAX_VALUE : QueueHost.PREFETCH_BYTES;
	}

	/** Marks the {@code seq}-th item of this session done; the host hears of it in handed-out order. */
	private synchronized void acknowledge(long seq) {
		if (seq < acknowledged || !ackedAhead.add(seq)) {
			return;
		}
		while (ackedAhead.remove(acknowledged)) {
			acknowledged++;
		}
	}

	@SuppressWarnings("unchecked")
	private void deliver(List<QueueItem> batch) {
		for (QueueItem held : batch) {
			if (isDone()) {
				return;
			}
			T item;
			try {
				item = decode.apply(held);
			}
			catch (RuntimeException e) {
				// Not acknowledged: the host puts it back when this session ends.
				finish(e);
				return;
			}
			long seq;
			synchronized (this) {
				// Checked with the count under one lock: an item is either handed back by stop() or delivered, never both.
				if (done || sink.isCancelled()) {
					return;
				}
				seq = emitted++;
				if (!manual) {
					// Acknowledged as it is handed over: a subscriber that cancels inside onNext (take) has it.
					acknowledge(seq);
				}
			}
			sink.next(manual ? (E) new OpenDelivery(item, seq) : (E) item);
		}
		sendControl();
	}

	/** A delivered item whose acknowledgement is the receiver's to make. */
	private final class OpenDelivery implements Delivery<T> {

		private final T value;
		private final long seq;

		OpenDelivery(T value, long seq) {
			this.value = value;
			this.seq = seq;
		}

		@Override
		public T value() {
			return value;
		}

		@Override
		public void ack() {
			acknowledge(seq);
			sendControl();
		}

		@Override
		public String toString() {
			return "Delivery[" + value + "]";
		}
	}

	private synchronized boolean isDone() {
		return done;
	}

	private void finish(@Nullable Throwable error) {
		synchronized (this) {
			if (done) {
				return;
			}
		}
		if (error == null) {
			sink.complete();
		}
		else {
			sink.error(error);
		}
	}

	/** Acknowledges what was delivered, then ends the session so the host takes back the rest. */
	private void stop() {
		synchronized (this) {
			if (done) {
				return;
			}
			if (acknowledged > reported) {
				controls.tryEmitNext(new CreditFrame(0, acknowledged - reported, heldBytes()));
				reported = acknowledged;
			}
			done = true;
			controls.tryEmitComplete();
		}
		worker.dispose();
	}
}
