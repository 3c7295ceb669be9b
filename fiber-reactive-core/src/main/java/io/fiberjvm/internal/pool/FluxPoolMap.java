package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;

import io.fiberjvm.FiberException;
import io.fiberjvm.pool.TaskResult;

/**
 * The tasks of one mapping call as one operator: it asks the caller's publisher for items as its window allows,
 * encodes each, submits them to the dispatcher a batch at a time, and emits each element's outcome as a
 * {@link TaskResult}, in input order; or, unordered, each element's value as it ends, failing the call at once with
 * the first element that fails.
 *
 * <p>The caller's publisher is subscribed to and asked for items on a worker of its own ({@code subscribeOn}), as
 * items may take their time to come; one drain loop, on another worker of {@link Schedulers#boundedElastic()},
 * encodes and submits what has arrived and emits outcomes, so neither the publisher nor the subscriber runs on a
 * connection's thread, and results reach the subscriber where blocking is allowed. Elements end on the thread that
 * read their answers and only wake the loop when it waits for them: on short tasks the pool's own work per element is
 * what a caller waits for, so an element costs no Reactor subscription of its own. At most
 * {@link ProcessPool#WINDOW} elements are between submission and emission. A first attempt that fails goes on into
 * the later attempts the call's retry allows, given as {@link LaterAttempts}. Cancelling cancels every attempt under
 * way and the caller's publisher (its worker is disposed, which interrupts a publisher blocked on it, as any
 * {@code subscribeOn} does); an error of that publisher, or one thrown in the loop or by the publisher's
 * {@code subscribe}, does too, then fails the call. Two cases reach the subscriber on another thread: a worker that
 * refuses the loop (its scheduler shut down, or its queue full) ends the call on the thread that woke it, a
 * connection's thread when an element ended; and past boundedElastic's cap of threads, the publisher's worker and the
 * loop's may share a thread, so a publisher that blocks holds up its call's results.
 *
 * @param <R> the elements' result type
 */
final class FluxPoolMap<R> extends Flux<TaskResult<R>> {

	/** The attempts after a first that failed: they end with the element's value (empty for null) or its last error. */
	@FunctionalInterface
	interface LaterAttempts {

		Mono<Object> after(@Nullable ByteBuffer argument, TaskName description, Throwable first);
	}

	/** The caller's publisher, subscribed to on a worker of its own, through a guard against one that throws. */
	private final Flux<?> source;
	private final Scheduler scheduler;
	private final MapTasks tasks;
	private final boolean ordered;

	private FluxPoolMap(Publisher<?> source, Scheduler scheduler, MapTasks tasks, boolean ordered) {
		this.source = Flux.from(guarded(source)).subscribeOn(scheduler);
		this.scheduler = scheduler;
		this.tasks = tasks;
		this.ordered = ordered;
	}

	/**
	 * Each element's outcome, in input order.
	 *
	 * @param what the call, as errors name it ({@code map})
	 * @param chunkSize the caller's chunk size, or 0 to adapt
	 * @param idempotent whether the function may run again for an element
	 * @param timeoutNanos how long a task may run before its worker interrupts it, or 0 for no limit
	 */
	static <R> Flux<TaskResult<R>> ordered(Publisher<?> source, PoolCore core, ShippedFunction function, String what, int chunkSize,
			boolean idempotent, long timeoutNanos, LaterAttempts laterAttempts) {
		return of(source, Schedulers.boundedElastic(), new MapTasks(core, function, what, chunkSize, idempotent, timeoutNanos,
				laterAttempts), true);
	}

	/** Each element's outcome as it ends, a success each: the first element that fails fails the call at once. */
	static <R> Flux<TaskResult<R>> unordered(Publisher<?> source, PoolCore core, ShippedFunction function, String what,
			int chunkSize, boolean idempotent, long timeoutNanos, LaterAttempts laterAttempts) {
		return of(source, Schedulers.boundedElastic(), new MapTasks(core, function, what, chunkSize, idempotent, timeoutNanos,
				laterAttempts), false);
	}

	/** The call with its publisher and its loop on workers of {@code scheduler}. */
	static <R> Flux<TaskResult<R>> of(Publisher<?> source, Scheduler scheduler, MapTasks tasks, boolean ordered) {
		return onAssembly(new FluxPoolMap<>(source, scheduler, tasks, ordered));
	}

	/** {@code source}, whose {@code subscribe} throwing fails its subscriber instead of escaping to the worker. */
	private static Publisher<Object> guarded(Publisher<?> source) {
		return subscriber -> {
			try {
				source.subscribe(subscriber);
			}
			catch (Throwable e) {
				Operators.reportThrowInSubscribe(Operators.toCoreSubscriber(subscriber), e);
			}
		};
	}

	@Override
	public void subscribe(CoreSubscriber<? super TaskResult<R>> actual) {
		MapCall<R> main = new MapCall<>(actual, scheduler.createWorker(), tasks, ordered);
		actual.onSubscribe(main);
		if (!main.isCancelled()) {
			// Subscribed, and asked for items, on a worker of its own: the publisher may do work there, or wait.
			source.subscribe(main);
		}
	}
}
