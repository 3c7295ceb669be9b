package io.fiberjvm.internal.queue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.internal.frames.QueueItem;
import io.fiberjvm.internal.stream.EarlyDemandSubscriber;

/**
 * The producer's side of a queue session: asks the user's publisher for exactly as many items as the
 * host granted room for, and sends what has arrived in batches.
 *
 * <p>Batching is opportunistic: items are encoded as they arrive and a worker sends whatever has piled
 * up since its last send, so a fast publisher fills large batches and a slow one is not held back. Items of a
 * compact form (arrays of numbers or bytes, numbers, texts) are encoded into arrays the session's {@link ItemArrays}
 * lends, and every item's array is taken back once its batch is sent.
 */
final class Sender<T> extends EarlyDemandSubscriber<T> {

	private final BiFunction<T, IntFunction<byte @Nullable []>, ByteBuffer> encode;
	private final ItemArrays arrays = new ItemArrays();
	private final int maxBatchItems;
	private final int maxBatchBytes;
	private final MonoSink<Void> done;
	private final Scheduler.Worker worker = Schedulers.boundedElastic().createWorker();
	private final Sinks.Many<List<QueueItem>> batches = Sinks.many().unicast().onBackpressureBuffer();
	private final Queue<QueueItem> pending = new ConcurrentLinkedQueue<>();
	private final AtomicInteger wip = new AtomicInteger();
	private volatile boolean sourceDone;
	private volatile @Nullable Throwable sourceError;

	private Sender(BiFunction<T, IntFunction<byte @Nullable []>, ByteBuffer> encode, int maxBatchItems, int maxBatchBytes,
			MonoSink<Void> done) {
		this.encode = encode;
		this.maxBatchItems = maxBatchItems;
		this.maxBatchBytes = maxBatchBytes;
		this.done = done;
	}

	/**
	 * Sends {@code items} on {@code channel}, each encoded by {@code encode} into an array of the size it asks of the
	 * function it is given (or into one of its own making).
	 */
	static <T> Mono<Void> send(QueueChannel channel, Publisher<? extends T> items,
			BiFunction<T, IntFunction<byte @Nullable []>, ByteBuffer> encode, int maxBatchItems, int maxBatchBytes) {
		return Mono.create(done -> {
			Sender<T> sender = new Sender<>(encode, maxBatchItems, maxBatchBytes, done);
			// Subscribed first, so the first grant finds a subscription to request from.
			Flux.<T>from(items).subscribe(sender);
			// Each grant is room for that many more items, asked of the publisher.
			var grants = channel.send(sender.batches.asFlux(), sender.arrays::giveBack).subscribe(sender::ask,
					error -> sender.fail(error), () -> sender.finished());
			done.onCancel(() -> {
				grants.dispose();
				sender.cancel();
				sender.worker.dispose();
			});
		});
	}

	@Override
	protected void hookOnNext(T value) {
		try {
			pending.offer(QueueItem.of(encode.apply(value, arrays::take)));
		}
		catch (RuntimeException e) {
			cancel();
			sourceError = e;
		}
		drainLater();
	}

	@Override
	protected void hookOnComplete() {
		sourceDone = true;
		drainLater();
	}

	@Override
	protected void hookOnError(Throwable error) {
		sourceError = error;
		drainLater();
	}

	private void drainLater() {
		if (wip.getAndIncrement() == 0) {
			try {
				worker.schedule(this::drain);
			}
			catch (RejectedExecutionException cancelled) {
				// the caller cancelled the send
			}
		}
	}

	private void drain() {
		int missed = 1;
		while (true) {
			List<QueueItem> batch = new ArrayList<>();
			int bytes = 0;
			QueueItem item;
			while ((item = pending.peek()) != null) {
				if (!batch.isEmpty() && (batch.size() >= maxBatchItems || bytes + item.size() > maxBatchBytes)) {
					batches.tryEmitNext(batch);
					batch = new ArrayList<>();
					bytes = 0;
				}
				batch.add(pending.poll());
				bytes += item.size() + 4;
			}
			if (!batch.isEmpty()) {
				batches.tryEmitNext(batch);
			}
			if (sourceError != null) {
				batches.tryEmitError(sourceError);
				done.error(sourceError);
				worker.dispose();
				return;
			}
			if (sourceDone && pending.isEmpty()) {
				batches.tryEmitComplete();
			}
			missed = wip.addAndGet(-missed);
			if (missed == 0) {
				return;
			}
		}
	}

	private void finished() {
		worker.dispose();
		done.success();
	}

	private void fail(Throwable error) {
		cancel();
		worker.dispose();
		done.error(error);
	}
}
