package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Signal;
import reactor.util.function.Tuple2;
import reactor.util.retry.Retry;

import io.fiberjvm.internal.stream.SequenceOut;

/**
 * The tasks of one streaming call ({@code flatMap}, {@code flatMapSequential}): one {@link StreamAttempt} per
 * attempt at an item, retried as the view's retry says while no element of the item has been delivered, and
 * the items' elements merged.
 */
final class StreamingTasks {

	private final PoolCore core;
	private final int chunkSize;
	private final boolean idempotent;
	private final Retry retry;

	StreamingTasks(PoolCore core, int chunkSize, boolean idempotent, Retry retry) {
		this.idempotent = idempotent;
		this.core = core;
		this.chunkSize = chunkSize;
		this.retry = retry;
	}

	/** Every item's elements: interleaved as they come, or each item's together in input order. */
	<T> Flux<Object> elements(ShippedFunction shipped, Flux<Tuple2<Long, T>> items, String what, boolean sequential) {
		// Each item's end travels as a signal behind its elements: merged, an error would overtake the
		// elements that came before it, and an item's completion is not the call's.
		Function<Tuple2<Long, T>, Flux<Signal<Object>>> item = indexed -> item(shipped, indexed.getT2(), indexed.getT1(), what)
				.materialize().filter(signal -> !signal.isOnComplete());
		return (sequential
				// Only as many streams as workers: a stream holds its worker while it waits for its turn, so
				// a retried earlier item must find a worker that no later item holds.
				? items.flatMapSequential(item, Math.max(1, core.size()))
				: items.flatMap(item, ProcessPool.WINDOW)).dematerialize();
	}

	/** One item's elements, with the retry while none has been delivered. */
	private Flux<Object> item(ShippedFunction shipped, Object arg, long index, String what) {
		TaskName description = new TaskName(what, index, shipped);
		return Flux.defer(() -> {
			core.submitted.incrementAndGet();
			long submittedAt = System.nanoTime();
			ByteBuffer argument = core.codec.argument(arg, description);
			AtomicLong delivered = new AtomicLong();
			AtomicInteger attempts = new AtomicInteger();
			Flux<Object> attempt = Flux.create(out -> {
				int n = attempts.incrementAndGet();
				if (n > 1) {
					core.retried.incrementAndGet();
				}
				StreamAttempt stream = new StreamAttempt(core.codec, out, delivered);
				Task task = new Task(core.nextTaskId(), shipped, argument, description, n, chunkSize, idempotent, stream);
				stream.named(task);
				out.onCancel(() -> {
					core.dispatcher.cancel(task);
					stream.cancel();
				});
				core.dispatcher.submit(task);
			}, FluxSink.OverflowStrategy.BUFFER);
			return attempt.retryWhen(Retry.from(signals -> retry.generateCompanion(signals.map(signal -> {
				if (delivered.get() > 0) {
					// Another attempt would deliver those elements again.
					throw Exceptions.propagate(signal.failure());
				}
				return signal;
			})))).onErrorMap(Exceptions::isRetryExhausted, ProcessPool::lastError)
					.doOnTerminate(() -> core.taskEnded(System.nanoTime() - submittedAt))
					// Demand goes to the worker in batches, which its frames of elements follow.
					.limitRate(SequenceOut.PREFETCH);
		});
	}
}
