package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.util.function.Tuple2;
import reactor.util.retry.Retry;

import io.fiberjvm.FiberBiFunction;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.internal.Deadlines;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolStats;
import io.fiberjvm.pool.TaskResult;
import io.fiberjvm.pool.WorkerLostException;
import io.fiberjvm.pool.WorkerStartException;

/** A view of a pool: the shared {@link PoolCore} plus this view's task options. Immutable. */
final class ProcessPool implements FiberPool {

	/** Tasks of one call submitted at once; results beyond the first unfinished one wait in order. */
	static final int WINDOW = 8192;
	/** Items asked of the caller's publisher at a time. */
	static final int INPUT_BATCH = 256;
	/**
	 * The tag naming the pool on the sequences its operations return, which are named
	 * {@code fiber.pool.<operation>}: Reactor's metrics ({@code tap(Micrometer.metrics(registry))}) use both.
	 */
	static final String POOL_TAG = "pool";

	private final PoolCore core;
	private final boolean idempotent;
	private final Retry retry;
	private final int chunkSize;
	/** The tasks' deadline, or 0 for none. */
	private final long timeoutNanos;

	ProcessPool(PoolCore core, boolean idempotent, Retry retry, int chunkSize, long timeoutNanos) {
		this.core = core;
		this.idempotent = idempotent;
		this.retry = retry;
		this.chunkSize = chunkSize;
		this.timeoutNanos = timeoutNanos;
	}

	@Override
	public FiberPool idempotent(boolean idempotent) {
		return new ProcessPool(core, idempotent, retry, chunkSize, timeoutNanos);
	}

	@Override
	public FiberPool retry(Retry retry) {
		return new ProcessPool(core, idempotent, Objects.requireNonNull(retry, "retry"), chunkSize, timeoutNanos);
	}

	@Override
	public FiberPool chunkSize(int tasks) {
		if (tasks < 0) {
			throw new IllegalArgumentException("chunk size " + tasks + " must be 0 (adaptive) or more");
		}
		return new ProcessPool(core, idempotent, retry, tasks, timeoutNanos);
	}

	@Override
	public FiberPool taskTimeout(Duration timeout) {
		return new ProcessPool(core, idempotent, retry, chunkSize, timeoutNanos(timeout));
	}

	/** {@code timeout} as a task's deadline in nanoseconds, 0 for none; refused when negative or beyond what a JVM can time. */
	static long timeoutNanos(Duration timeout) {
		return Deadlines.nanos(timeout, "a task timeout");
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T, R> Mono<R> apply(FiberFunction<? super T, ? extends R> fn, T arg) {
		Objects.requireNonNull(fn, "fn");
		return call("apply", () -> {
			ShippedFunction shipped = core.codec.ship(fn, fn.getClass());
			return task(shipped, arg, new TaskName("apply", -1, shipped));
		}).map(value -> (R) value).publishOn(Schedulers.boundedElastic()).name("fiber.pool.apply").tag(POOL_TAG, core.name());
	}

	@Override
	public <T, R> Flux<R> map(FiberFunction<? super T, ? extends R> fn, Iterable<? extends T> items) {
		return map(fn, Flux.fromIterable(Objects.requireNonNull(items, "items")));
	}

	@Override
	public <T, R> Flux<R> map(FiberFunction<? super T, ? extends R> fn, Publisher<? extends T> items) {
		return this.<T, R>mapResults(fn, items).map(ProcessPool::valueOf).name("fiber.pool.map");
	}

	@Override
	public <T, R> Flux<R> mapUnordered(FiberFunction<? super T, ? extends R> fn, Iterable<? extends T> items) {
		return mapUnordered(fn, Flux.fromIterable(Objects.requireNonNull(items, "items")));
	}

	@Override
	@SuppressWarnings("unchecked")
	public <T, R> Flux<R> mapUnordered(FiberFunction<? super T, ? extends R> fn, Publisher<? extends T> items) {
		Objects.requireNonNull(fn, "fn");
		Objects.requireNonNull(items, "items");
		return this.<R>mapping(() -> core.codec.ship(fn, fn.getClass()), items, "mapUnordered", false)
				.map(ProcessPool::valueOf)
				.name("fiber.pool.mapUnordered").tag(POOL_TAG, core.name());
	}

	@Override
	public <T, R> Flux<TaskResult<R>> mapResults(FiberFunction<? super T, ? extends R> fn, Publisher<? extends T> items) {
		Objects.requireNonNull(fn, "fn");
		Objects.requireNonNull(items, "items");
		return this.<R>mapping(() -> core.codec.ship(fn, fn.getClass()), items, "map", true).name("fiber.pool.mapResults")
				.tag(POOL_TAG, core.name());
	}

	@Override
	public <T, R> Flux<R> flatMap(FiberFunction<? super T, ? extends Publisher<? extends R>> fn, Iterable<? extends T> items) {
		return flatMap(fn, Flux.fromIterable(Objects.requireNonNull(items, "items")));
	}

	@Override
	public <T, R> Flux<R> flatMap(FiberFunction<? super T, ? extends Publisher<? extends R>> fn, Publisher<? extends T> items) {
		return streaming("flatMap", fn, items, false);
	}

	@Override
	public <T, R> Flux<R> flatMapSequential(FiberFunction<? super T, ? extends Publisher<? extends R>> fn,
			Iterable<? extends T> items) {
		return flatMapSequential(fn, Flux.fromIterable(Objects.requireNonNull(items, "items")));
	}

	@Override
	public <T, R> Flux<R> flatMapSequential(FiberFunction<? super T, ? extends Publisher<? extends R>> fn,
			Publisher<? extends T> items) {
		return streaming("flatMapSequential", fn, items, true);
	}

	/** A call whose tasks stream their elements back: interleaved, or each item's together in input order. */
	@SuppressWarnings("unchecked")
	private <T, R> Flux<R> streaming(String what, FiberFunction<?, ?> fn, Publisher<? extends T> items, boolean sequential) {
		Objects.requireNonNull(fn, "fn");
		Objects.requireNonNull(items, "items");
		return this.<Object>calling(what, () -> core.codec.shipStream(fn),
				shipped -> new StreamingTasks(core, chunkSize, idempotent, effectiveRetry()).elements(shipped, input(items), what, sequential))
				.map(value -> (R) value)
				.name("fiber.pool." + what).tag(POOL_TAG, core.name());
	}

	@Override
	public <A, B, R> Flux<R> starmap(FiberBiFunction<? super A, ? super B, ? extends R> fn, Iterable<? extends Tuple2<A, B>> pairs) {
		return starmap(fn, Flux.fromIterable(Objects.requireNonNull(pairs, "pairs")));
	}

	@Override
	@SuppressWarnings("unchecked")
	public <A, B, R> Flux<R> starmap(FiberBiFunction<? super A, ? super B, ? extends R> fn, Publisher<? extends Tuple2<A, B>> pairs) {
		Objects.requireNonNull(fn, "fn");
		Objects.requireNonNull(pairs, "pairs");
		Flux<Object[]> arguments = Flux.from(pairs).map(pair -> new Object[] {pair.getT1(), pair.getT2()});
		return this.<R>mapping(() -> core.codec.shipPair(fn, new Spread(fn)), arguments, "starmap", true)
				.map(result -> valueOf((TaskResult<R>) result)).name("fiber.pool.starmap").tag(POOL_TAG, core.name());
	}

	@Override
	public <T, R> Function<Flux<T>, Flux<R>> mapper(FiberFunction<? super T, ? extends R> fn) {
		Objects.requireNonNull(fn, "fn");
		return items -> map(fn, items);
	}

	/**
	 * A mapping call: each element's outcome, in input order or as they end, from one operator that reaches the
	 * subscriber on a worker where blocking is allowed.
	 */
	private <R> Flux<TaskResult<R>> mapping(Supplier<ShippedFunction> function, Publisher<?> items, String what, boolean ordered) {
		return counted(what, function, shipped -> {
			FluxPoolMap.LaterAttempts later = (argument, description, first) -> retries(attempt(shipped, argument, description,
					new AtomicInteger(1)), first);
			return ordered ? FluxPoolMap.<R>ordered(items, core, shipped, what, chunkSize, idempotent, timeoutNanos, later)
					: FluxPoolMap.<R>unordered(items, core, shipped, what, chunkSize, idempotent, timeoutNanos, later);
		});
	}

	/**
	 * A call over many items, counted in and out of the pool's open calls; its function is shipped when the
	 * call starts, so one that cannot travel fails the call, not the caller. Results reach the subscriber on a
	 * worker where blocking is allowed.
	 */
	private <O> Flux<O> calling(String what, Supplier<ShippedFunction> function, Function<ShippedFunction, Flux<O>> body) {
		return counted(what, function, body).publishOn(Schedulers.boundedElastic());
	}

	/** A call over many items, counted in and out of the pool's open calls, its function shipped when it starts. */
	private <O> Flux<O> counted(String what, Supplier<ShippedFunction> function, Function<ShippedFunction, Flux<O>> body) {
		return Flux.defer(() -> {
			core.lifecycle.callStarted(what);
			Flux<O> results;
			try {
				results = body.apply(function.get());
			}
			catch (RuntimeException e) {
				core.lifecycle.callEnded();
				throw e;
			}
			return results.doFinally(signal -> core.lifecycle.callEnded());
		});
	}

	/**
	 * The caller's items, numbered, asked for and serialized on a worker thread: demand for more comes
	 * from the thread that completed a task, a network thread, where the caller's publisher must not run.
	 */
	private static <T> Flux<Tuple2<Long, T>> input(Publisher<? extends T> items) {
		// limitRate batches the one-at-a-time demand of flatMapSequential, so the hop to the worker is per batch, not per task.
		return Flux.<T>from(items).subscribeOn(Schedulers.boundedElastic()).limitRate(INPUT_BATCH).index();
	}

	/** A mapped element's value, or its error thrown; never null, since an element's task never returns null. */
	private static <R> R valueOf(TaskResult<R> result) {
		return Objects.requireNonNull(result.value(), "an element's value");
	}

	/** Runs one call that is a single Mono, counted in and out of the pool's open calls. */
	private Mono<Object> call(String what, Supplier<Mono<Object>> body) {
		return Mono.defer(() -> {
			core.lifecycle.callStarted(what);
			try {
				return body.get().doFinally(signal -> core.lifecycle.callEnded());
			}
			catch (RuntimeException e) {
				core.lifecycle.callEnded();
				throw e;
			}
		});
	}

	/** One task, with this view's retry; a retry is a new attempt queued ahead of fresh work. */
	private Mono<Object> task(ShippedFunction shipped, Object arg, TaskName description) {
		return Mono.defer(() -> {
			core.submitted.incrementAndGet();
			long submittedAt = System.nanoTime();
			return attempts(shipped, arg, description).doOnTerminate(() -> core.taskEnded(System.nanoTime() - submittedAt));
		});
	}

	/** The task's attempts: the first, then retries as this view's retry allows. */
	private Mono<Object> attempts(ShippedFunction shipped, Object arg, TaskName description) {
		return Mono.defer(() -> {
			ByteBuffer argument = core.codec.argument(arg, description);
			Mono<Object> attempt = attempt(shipped, argument, description, new AtomicInteger());
			// Retry machinery only for a task that failed once: most never do, and it costs per subscription.
			return attempt.onErrorResume(first -> retries(attempt, first));
		});
	}

	/** Each subscription one more attempt at the task, numbered after the {@code made} ones; all but the first are retries. */
	private Mono<Object> attempt(ShippedFunction shipped, @Nullable ByteBuffer argument, TaskName description, AtomicInteger made) {
		return Mono.create(sink -> {
			int n = made.incrementAndGet();
			if (n > 1) {
				core.retried.incrementAndGet();
			}
			Task task = new Task(core.nextTaskId(), shipped, argument, description, n, chunkSize, idempotent, timeoutNanos,
					TaskSink.of(sink));
			sink.onCancel(() -> core.dispatcher.cancel(task));
			core.dispatcher.submit(task);
		});
	}

	/** The attempts after a first that failed with {@code first}, as this view's retry allows; the last error if all fail. */
	private Mono<Object> retries(Mono<Object> attempt, Throwable first) {
		AtomicBoolean replayed = new AtomicBoolean();
		return Mono.defer(() -> replayed.compareAndSet(false, true) ? Mono.error(first) : attempt)
				.retryWhen(effectiveRetry())
				.onErrorMap(Exceptions::isRetryExhausted, ProcessPool::lastError);
	}

	/** The error of the last attempt, which a spent retry carries as its cause. */
	static Throwable lastError(Throwable exhausted) {
		return exhausted.getCause() != null ? exhausted.getCause() : exhausted;
	}

	/**
	 * The view's retry, except that a pool whose workers cannot start is not tried again, nor a lost task of a
	 * function that is not idempotent.
	 */
	private Retry effectiveRetry() {
		return Retry.from(signals -> retry.generateCompanion(signals.map(signal -> {
			if (signal.failure() instanceof WorkerStartException cannotStart) {
				throw cannotStart;
			}
			if (!idempotent && signal.failure() instanceof WorkerLostException lost) {
				throw lost;
			}
			return signal;
		})));
	}

	@Override
	public int size() {
		return core.size();
	}

	@Override
	public Flux<Duration> taskLatencies() {
		return core.taskLatencies();
	}

	@Override
	public void resize(int workers) {
		core.resize(workers);
	}

	@Override
	public List<FiberProcess> workers() {
		return core.workers();
	}

	@Override
	public PoolStats stats() {
		return core.stats();
	}

	@Override
	public Mono<Void> closeAsync() {
		return Mono.defer(() -> {
			core.close();
			return core.onClose();
		});
	}

	@Override
	public void dispose() {
		core.close();
	}

	@Override
	public boolean isDisposed() {
		return core.lifecycle.isClosing();
	}

	@Override
	public void terminate() {
		core.terminate();
	}

	@Override
	public Mono<Void> onClose() {
		return core.onClose();
	}

	@Override
	public String toString() {
		return "FiberPool[" + core.name() + ", " + core.size() + " workers" + (idempotent ? "" : ", not idempotent")
				+ (chunkSize > 0 ? ", chunks of " + chunkSize : "") + (timeoutNanos > 0 ? ", task timeout " + Duration.ofNanos(timeoutNanos) : "")
				+ "]";
	}

	/** Runs a two-argument function on an argument pair: what starmap ships. */
	private static final class Spread implements FiberFunction<Object[], Object> {

		private static final long serialVersionUID = 1L;

		private final FiberBiFunction<Object, Object, Object> fn;

		@SuppressWarnings("unchecked")
		Spread(FiberBiFunction<?, ?, ?> fn) {
			this.fn = (FiberBiFunction<Object, Object, Object>) fn;
		}

		@Override
		public Object apply(Object[] pair) {
			return fn.apply(pair[0], pair[1]);
		}
	}
}
