package io.fiberjvm.pool;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.function.Tuple2;
import reactor.util.retry.Retry;

import io.fiberjvm.AsyncCloseable;
import io.fiberjvm.FiberBiFunction;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;

/**
 * A pool of worker processes that run shipped functions: the cluster's {@code ExecutorService}, as
 * Monos and Fluxes. Made by {@link io.fiberjvm.Fiber#pool(int)}.
 *
 * <p>The contract:
 * <ul>
 * <li><b>Scheduling.</b> Workers pull tasks: each holds at most two chunks of tasks, and a second
 * chunk only when it is known to be short (at most 50 ms of work). A chunk's size adapts to the
 * measured task duration (about 50 ms of work per chunk: 1 ms tasks go fifty at a time, 1 s tasks one
 * at a time), and never exceeds half an even share of what is queued, so chunks shrink as the queue
 * drains and no worker idles while another holds a backlog.</li>
 * <li><b>Worker loss.</b> A worker that dies (SIGKILL, out of memory, a lost connection, missed
 * keep-alives, the backend reporting it stopped) is detected within the keep-alive timeout, and
 * replaced at once. Only the task it was running is charged: when it held one unanswered task, that
 * task's attempt fails with {@link WorkerLostException}, which the pool's {@link #retry(Retry) retry
 * spec} turns into a new attempt only when the function is {@link #idempotent(boolean) idempotent}.
 * When it held several, it may have been running any of them, so none is charged: each is queued
 * again and runs alone on a worker that takes nothing else meanwhile, and a task that kills its
 * worker is charged for a death of its own. The default is idempotent with {@code Retry.max(2)} on
 * worker loss only: three attempts in all.</li>
 * <li><b>Failed starts.</b> A worker process that ends before connecting (other than killed by a
 * signal) or does not connect within the start timeout is started again after a jittered delay that
 * grows from the {@link PoolBuilder#restartBackoff restart backoff}'s least to its most. After
 * {@code worker-start-failures} failed starts in a row, a pool with no worker fails its waiting and
 * new calls with {@link WorkerStartException}, carrying the last start's error, until a worker
 * connects. A process killed while it starts is replaced at once.</li>
 * <li><b>Task errors.</b> A function that throws fails that element with a
 * {@link TaskFailedException} carrying the remote type, message and stack trace; the worker goes on,
 * and the task is retried only when the retry spec's filter accepts that error.</li>
 * <li><b>Exactly once.</b> Each element's result or error is delivered once, even when a task ran
 * twice. Results reach the subscriber on a {@code boundedElastic} worker, where blocking is allowed.</li>
 * <li><b>Cancellation</b> stops dispatch: queued tasks of a cancelled call are dropped, a task already
 * handed to a worker and not started is skipped there, and one running is interrupted on its worker
 * ({@link Thread#interrupt()}); one that does not stop within {@code task-timeout-grace} costs its worker's
 * JVM, as a task past its deadline does. Results that still arrive are discarded.</li>
 * <li><b>Deadlines.</b> A task of a {@link #taskTimeout(Duration) view with a task timeout} is interrupted
 * on its worker when it runs longer, and fails with {@link TaskTimeoutException}; one that does not stop
 * has its worker's JVM replaced.</li>
 * <li><b>Values</b> (arguments and results) travel through the run's one codec, as queue items and
 * manager calls do: compact forms for numbers, strings and primitive arrays, Java serialization behind
 * the run's allow-list otherwise (the JDK value types, the program's package tree,
 * {@code fiber.serial-allow}; a function may also hold classes of its own package). An argument the
 * workers would refuse fails the call that sends it, naming the pattern to add.</li>
 * </ul>
 * Options ({@link #idempotent}, {@link #retry}, {@link #chunkSize}, {@link #taskTimeout}) return a view of the same pool
 * with that option changed; the original is unchanged.
 */
public interface FiberPool extends AsyncCloseable, Disposable {

	/** Runs {@code fn(arg)} on a worker. */
	<T, R> Mono<R> apply(FiberFunction<? super T, ? extends R> fn, T arg);

	/** {@code fn} over every item, results in input order; fails at the first element that failed, in order. */
	<T, R> Flux<R> map(FiberFunction<? super T, ? extends R> fn, Iterable<? extends T> items);

	/** {@code fn} over every item as the publisher gives them, results in input order. */
	<T, R> Flux<R> map(FiberFunction<? super T, ? extends R> fn, Publisher<? extends T> items);

	/** {@code fn} over every item, results as they complete; fails with the first error to arrive. */
	<T, R> Flux<R> mapUnordered(FiberFunction<? super T, ? extends R> fn, Iterable<? extends T> items);

	/** {@code fn} over every item as the publisher gives them, results as they complete. */
	<T, R> Flux<R> mapUnordered(FiberFunction<? super T, ? extends R> fn, Publisher<? extends T> items);

	/** {@code fn} over every item, each element's outcome in input order: a failed element does not end the stream. */
	<T, R> Flux<TaskResult<R>> mapResults(FiberFunction<? super T, ? extends R> fn, Publisher<? extends T> items);

	/**
	 * {@code fn} over every item, each task's {@code Publisher} streamed back element by element; elements of
	 * different items interleave as they arrive, as {@link Flux#flatMap} does. The caller's demand reaches
	 * the worker, so a worker makes no more elements than were asked for (at most a few hundred ahead of the
	 * subscriber), and they travel in batches. A streaming task holds its worker, alone, until its stream ends or its caller
	 * cancels, which cancels the publisher on the worker. A task whose worker is lost before its stream
	 * delivered an element is retried as any other; one lost after fails with a {@link WorkerLostException}
	 * saying how many elements came, and is not run again, so no element arrives twice. A function or
	 * publisher that fails ends the call with a {@link TaskFailedException} after the elements that arrived.
	 */
	<T, R> Flux<R> flatMap(FiberFunction<? super T, ? extends Publisher<? extends R>> fn, Publisher<? extends T> items);

	/** {@code fn} over every item, each task's elements streamed back as {@link #flatMap(FiberFunction, Publisher)} says. */
	<T, R> Flux<R> flatMap(FiberFunction<? super T, ? extends Publisher<? extends R>> fn, Iterable<? extends T> items);

	/**
	 * As {@link #flatMap(FiberFunction, Publisher)}, with each item's elements together and the items in input
	 * order, as {@link Flux#flatMapSequential} does: as many items stream at once as the pool has workers when
	 * the call starts, and those after the first wait, a few hundred elements each, until their turn. A pool
	 * resized down meanwhile, or whose workers other calls' streams hold, can leave an earlier item's retry
	 * waiting for a worker that a later item of the same call holds until that item's turn: give such a call
	 * a pool of its own.
	 */
	<T, R> Flux<R> flatMapSequential(FiberFunction<? super T, ? extends Publisher<? extends R>> fn, Publisher<? extends T> items);

	/** {@code fn} over every item, each item's elements together, in input order. */
	<T, R> Flux<R> flatMapSequential(FiberFunction<? super T, ? extends Publisher<? extends R>> fn, Iterable<? extends T> items);

	/** {@code fn(a, b)} for every pair, results in input order. */
	<A, B, R> Flux<R> starmap(FiberBiFunction<? super A, ? super B, ? extends R> fn, Iterable<? extends Tuple2<A, B>> pairs);

	/** {@code fn(a, b)} for every pair as the publisher gives them, results in input order. */
	<A, B, R> Flux<R> starmap(FiberBiFunction<? super A, ? super B, ? extends R> fn, Publisher<? extends Tuple2<A, B>> pairs);

	/** The pool as a pipeline stage, for {@code flux.transform(pool.mapper(fn))}: ordered, like {@link #map}. */
	<T, R> Function<Flux<T>, Flux<R>> mapper(FiberFunction<? super T, ? extends R> fn);

	/**
	 * A view whose functions are (or are not) idempotent: safe to run again after their worker was
	 * lost. Tasks of a function that is not fail with {@link WorkerLostException} when lost, whatever
	 * the retry spec says, and run one at a time on a worker that holds nothing else, so a worker's
	 * death fails the one task it was running and no task runs twice; very short tasks go slower so.
	 */
	FiberPool idempotent(boolean idempotent);

	/**
	 * A view that retries failed tasks as {@code retry} says, one task at a time. Its filter decides
	 * which errors count: {@link WorkerLostException} (only for idempotent functions),
	 * {@link TaskFailedException}, or both. When attempts run out the element fails with the last error.
	 */
	FiberPool retry(Retry retry);

	/** A view that hands tasks out {@code tasks} at a time; {@code 0} (the default) adapts to task duration. */
	FiberPool chunkSize(int tasks);

	/**
	 * A view whose tasks each may run for at most {@code timeout} on their worker ({@link Duration#ZERO}: no limit,
	 * the default unless the pool's builder set one). The worker interrupts a task that runs longer, and its
	 * element fails with a {@link TaskTimeoutException} naming it; the worker goes on with other tasks. A task
	 * that does not stop within {@code task-timeout-grace} (default 5 s) of being interrupted fails all the same,
	 * and its worker's JVM is replaced, the other tasks it held queued again without using an attempt. The
	 * error is retried only when the retry spec's filter accepts it (the default does not). The deadline covers
	 * tasks answered with one value ({@code apply}, {@code map} and the like); a {@code flatMap} task streams
	 * for as long as its caller takes its elements, and stops when its {@code Flux} is cancelled.
	 *
	 * @throws IllegalArgumentException when {@code timeout} is negative or too long for a JVM to time
	 */
	FiberPool taskTimeout(Duration timeout);

	/** The number of workers the pool keeps. */
	int size();

	/** Changes the number of workers: new ones start, surplus ones finish their tasks and stop. */
	void resize(int workers);

	/**
	 * The worker processes taking tasks now: started, initialized, connected, and not retiring; each once,
	 * however many workers it hosts ({@link PoolBuilder#workersPerProcess(int)}).
	 */
	List<FiberProcess> workers();

	/** The pool's counters now. */
	PoolStats stats();

	/**
	 * Each task's time from its submission to its final outcome (a result, or an error once retries are
	 * spent), as tasks end: a hot {@code Flux} that sees only tasks ending while it is subscribed, and drops
	 * for a subscriber that has not asked for more. It is emitted on the thread that completed the task (a
	 * network thread), so a subscriber must be quick: record and return, as a Micrometer timer does. It does
	 * not complete when the pool closes.
	 */
	Flux<Duration> taskLatencies();

	/**
	 * Closes the pool when subscribed: refuses new calls, finishes the work already accepted (replacing lost
	 * workers meanwhile), then stops the workers; completes once they have all ended. Idempotent.
	 * {@link #close()} does the same and waits, as {@code ExecutorService.close()} does from Java 19:
	 * so do not call {@code close()} from inside a subscriber of one of this pool's own calls, which would
	 * wait for itself; use {@link #dispose()} there.
	 */
	@Override
	Mono<Void> closeAsync();

	/** Starts closing, as {@link #closeAsync()} does, and returns at once. */
	@Override
	void dispose();

	/** Whether closing (or terminating) has begun: the pool takes no new calls. */
	@Override
	boolean isDisposed();

	/** Stops now: queued and running tasks fail with {@link PoolClosedException}, workers are stopped. */
	void terminate();

	/** Completes once the pool has closed or terminated and its workers have ended. */
	@Override
	Mono<Void> onClose();
}
