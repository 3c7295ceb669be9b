package io.fiberjvm.queue;

import java.util.List;
import java.util.function.Function;

import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The consumer's side of a queue session: turns the subscriber's demand into credit for the host, hands
 * items to the subscriber on a worker thread, and acknowledges each one once its {@code onNext} has returned.
 *
 * <p>The host is never credited with more than the subscriber asked for, nor more than {@code prefetch}
 * ahead of what it acknowledged, so every item that arrives can be delivered at once and none waits in
 * a buffer here.
 */
final class Receiver<T> {

	private final int prefetch;
	private final Function<byte[], T> decode;
	private final FluxSink<T> sink;
	private final Scheduler.Worker worker = Schedulers.boundedElastic().createWorker();
	private final Sinks.Many<long[]> controls = Sinks.many().unicast().onBackpressureBuffer();
	private long requested;
	private long emitted;
	private long credited;
	private long unacknowledged;
	private boolean done;

	private Receiver(int prefetch, Function<byte[], T> decode, FluxSink<T> sink) {
		this.prefetch = prefetch;
		this.decode = decode;
		this.sink = sink;
	}

	static <T> Flux<T> receive(QueueChannel channel, int prefetch, Function<byte[], T> decode) {
		if (prefetch < 1) {
			throw new IllegalArgumentException("prefetch " + prefetch + " must be at least 1");
		}
		// ERROR, not BUFFER: credit never exceeds demand, so every item goes straight to onNext.
		return Flux.create(sink -> new Receiver<>(prefetch, decode, sink).start(channel), FluxSink.OverflowStrategy.ERROR);
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

	/** Credits the host up to the smaller of the subscriber's demand and the prefetch window; carries acknowledgements. */
	private synchronized void sendControl() {
		if (done) {
			return;
		}
		long target = emitted + Math.min(prefetch, requested - emitted);
		long credit = Math.max(0, target - credited);
		if (credit > 0 || unacknowledged > 0) {
			credited += credit;
			controls.tryEmitNext(new long[] {credit, unacknowledged});
			unacknowledged = 0;
		}
	}

	private void deliver(List<byte[]> batch) {
		for (byte[] bytes : batch) {
			if (isDone()) {
				return;
			}
			T item;
			try {
				item = decode.apply(bytes);
			}
			catch (RuntimeException e) {
				// Not acknowledged: the host puts it back when this session ends.
				finish(e);
				return;
			}
			// Counted before onNext: a subscriber that cancels inside onNext (take) has this item.
			synchronized (this) {
				emitted++;
				unacknowledged++;
			}
			sink.next(item);
		}
		sendControl();
	}

	private synchronized boolean isDone() {
		return done;
	}

	private void finish(Throwable error) {
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
			if (unacknowledged > 0) {
				controls.tryEmitNext(new long[] {0, unacknowledged});
				unacknowledged = 0;
			}
			done = true;
			controls.tryEmitComplete();
		}
		worker.dispose();
	}
}
