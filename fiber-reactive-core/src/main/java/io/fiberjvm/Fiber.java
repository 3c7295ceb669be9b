package io.fiberjvm;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.internal.pool.DefaultPoolBuilder;
import io.fiberjvm.internal.pool.Pools;
import io.fiberjvm.internal.queue.QueueService;
import io.fiberjvm.internal.ring.ProcessRing;
import io.fiberjvm.internal.runtime.FiberRuntime;
import io.fiberjvm.internal.runtime.RunStatusWriter;
import io.fiberjvm.internal.share.SharedValues;
import io.fiberjvm.pool.PoolBuilder;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.PoolScaling;
import io.fiberjvm.queue.FiberPipe;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.ring.Ring;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.TransportStats;

/**
 * The runtime of one run: what a program opens to use job-backed processes, queues, pools and rings, and
 * closes when done.
 *
 * <p>It is an instance, not a global: a program may open several, each with its own configuration, backend,
 * secret and listening port. Nothing listens until the first process is started or the first queue is made.
 * Closing it terminates every pool and process it started and stops listening.
 *
 * <pre>{@code
 * try (Fiber fiber = Fiber.open()) {
 *     fiber.process(() -> System.out.println("hello from a child JVM"))
 *          .name("hello")
 *          .start()
 *          .flatMap(FiberProcess::join)
 *          .block();
 * }
 * }</pre>
 */
public final class Fiber implements AsyncCloseable, Disposable {

	private final FiberRuntime runtime;
	/** Keeps this run's status for {@code fiber ps}; null for a runtime that joined a run. */
	private final @Nullable RunStatusWriter statusWriter;
	private final String openedAt = Instant.now().toString();
	private final AtomicLong pools = new AtomicLong();
	private final Sinks.Empty<Void> closed = Sinks.empty();

	private Fiber(FiberRuntime runtime, boolean program) {
		this.runtime = runtime;
		this.statusWriter = program
				? new RunStatusWriter(RunStatus.directory(runtime.config()), runtime.runId(), runtime.backend(), this::status).start()
				: null;
	}

	/** Opens a runtime configured from system properties, the environment and {@code ./.fiberconfig}. */
	public static Fiber open() {
		return builder().open();
	}

	/** A builder whose values win over every other configuration source. */
	public static FiberBuilder builder() {
		return FiberBuilder.standard();
	}

	/** Opens a program's runtime with {@code config}. */
	static Fiber open(FiberConfig config) {
		return new Fiber(FiberRuntime.open(config), true);
	}

	/**
	 * A runtime that joins an existing run: it shares the run's secret, so it can reach queues and processes
	 * of that run and they can reach it. A program that joins a run started elsewhere opens one. Its
	 * {@code config} should name the run's {@code program-packages} and {@code serial-allow}, so that both
	 * sides accept the same values, and set {@code tls} as the run does (a run whose jobs are pods uses TLS).
	 *
	 * @param name the name this runtime gives when it connects to others
	 */
	public static Fiber joinRun(FiberConfig config, String secret, String name) {
		return new Fiber(FiberRuntime.join(config, secret, name, null), false);
	}

	/** The resolved configuration; children receive it too. */
	public FiberConfig config() {
		return runtime.config();
	}

	/** The name of the backend in use, for example {@code local}. */
	public String backendName() {
		return runtime.backend().name();
	}

	/** A short id of this run; it prefixes every job id. */
	public String runId() {
		return runtime.runId();
	}

	/**
	 * The runtime services plug into: for modules that add services of their own (managers, say). Application
	 * code does not need it.
	 */
	public RuntimeContext runtime() {
		return runtime;
	}

	/** Where this run listens for its children; binds on first use. Fails once the runtime is closed. */
	public Mono<Endpoint> address() {
		return runtime.address();
	}

	/** A queue hosted by this runtime, holding at most 1024 items; see {@link FiberQueue}. */
	public <T> FiberQueue<T> queue(Class<T> type) {
		return queue(type, 1024);
	}

	/**
	 * A queue hosted by this runtime, holding at most {@code capacity} items. It is made at once, binding this
	 * runtime's server if it does not listen yet.
	 */
	public <T> FiberQueue<T> queue(Class<T> type, int capacity) {
		refuseIfClosed("make a queue");
		return QueueService.of(runtime).create(type, capacity);
	}

	/**
	 * Shares {@code value} with the run: each JVM that uses the returned handle fetches the value once, however
	 * many tasks use it there; see {@link Shared}. The value is encoded now, so one that cannot travel (not
	 * serializable, outside the allow-list, over {@code max-value-size}) is refused here. It may wait for this
	 * runtime's listening address, the first time: not on a thread that must not block.
	 */
	public <T> Shared<T> share(T value) {
		refuseIfClosed("share a value");
		return SharedValues.of(runtime).share(value);
	}

	/** A duplex pipe: each end sends to the other; see {@link FiberPipe}. */
	public <T> FiberPipe<T> pipe(Class<T> type) {
		return pipe(type, true);
	}

	/** A pipe; one-way when {@code duplex} is false ({@link FiberPipe#left()} receives, {@link FiberPipe#right()} sends). */
	public <T> FiberPipe<T> pipe(Class<T> type, boolean duplex) {
		refuseIfClosed("make a pipe");
		return QueueService.of(runtime).pipe(Objects.requireNonNull(type, "type"), duplex);
	}

	/** A process that will run {@code target}, a serializable lambda or object. */
	public ProcessCall process(FiberRunnable target) {
		Objects.requireNonNull(target, "target");
		return new ProcessCall(runtime, target, "process", ResourceSpec.of(target.getClass()));
	}

	/** A process that will create {@code targetClass} with its no-argument constructor and run it. */
	public ProcessCall process(Class<? extends Runnable> targetClass) {
		Objects.requireNonNull(targetClass, "targetClass");
		return new ProcessCall(runtime, targetClass, targetClass.getSimpleName(), ResourceSpec.of(targetClass));
	}

	/**
	 * A ring of {@code size} job-backed members that run one function with ranks and collectives (barrier,
	 * broadcast, all-reduce, gather); see {@link Ring}.
	 */
	public Ring ring(int size) {
		refuseIfClosed("make a ring");
		return ProcessRing.of(runtime, size);
	}

	/**
	 * A pool of {@code workers} worker processes, to configure and {@link PoolBuilder#open() open}:
	 * {@code fiber.pool(4).initializer(...).open()}.
	 */
	public PoolBuilder pool(int workers) {
		if (runtime.isClosed()) {
			// The error a pool's callers handle already: the same as opening a builder made before the close.
			throw new PoolClosedException(runtime.closedMessage("make a pool"));
		}
		return DefaultPoolBuilder.of(runtime, workers, "pool" + pools.incrementAndGet());
	}

	/**
	 * An autoscaling pool of between {@code min} and {@code max} workers, with {@link PoolScaling}'s default times:
	 * {@code fiber.pool(PoolScaling.between(min, max))}.
	 *
	 * @throws IllegalArgumentException if {@code min} is negative, {@code max} is not positive, or {@code min > max}
	 */
	public PoolBuilder pool(int min, int max) {
		return pool(PoolScaling.between(min, max));
	}

	/**
	 * An autoscaling pool, sized as {@code scaling} says ({@link PoolScaling}), to configure and {@link PoolBuilder#open() open}:
	 * it starts with {@code scaling.min()} workers, adds workers while tasks wait longer than its queue time and retires
	 * idle ones. {@link io.fiberjvm.pool.FiberPool#resize} sets the size it goes on from, within its bounds.
	 */
	public PoolBuilder pool(PoolScaling scaling) {
		Objects.requireNonNull(scaling, "scaling");
		if (runtime.isClosed()) {
			throw new PoolClosedException(runtime.closedMessage("make a pool"));
		}
		return DefaultPoolBuilder.scaling(runtime, scaling, "pool" + pools.incrementAndGet());
	}

	/** Processes started by this runtime that have not ended yet. */
	public List<FiberProcess> liveProcesses() {
		return runtime.liveProcesses();
	}

	/** This run as {@code fiber ps --local} shows it: its processes, pools and their workers now. */
	public RunStatus status() {
		return new RunStatus(runtime.runId(), ProcessHandle.current().pid(), runtime.backend().name(), openedAt,
				runtime.processStatus(), Pools.of(runtime).status());
	}

	/** The counters of this runtime's listening server: connections, rejections, bytes; zeros before it listens. */
	public TransportStats transportStats() {
		return runtime.transportStats();
	}

	/**
	 * Closes the runtime when subscribed: terminates every pool and process it started (waiting at most the
	 * terminate grace plus a few seconds, 30 s more while the child that writes the class-sharing archive lives; the
	 * backend kills whatever is left), stops listening and closes its
	 * connections and its backend. Completes once closed; fails with what kept it from closing cleanly (the
	 * listener or the backend could not be closed), once it has closed all it could. Idempotent.
	 */
	@Override
	public Mono<Void> closeAsync() {
		return Mono.defer(() -> {
			runtime.closeAsync().subscribe(null, this::ended, () -> ended(null));
			return closed.asMono();
		});
	}

	/** The runtime has closed, cleanly or with {@code error}: the run's status goes too. */
	private void ended(@Nullable Throwable error) {
		if (statusWriter != null) {
			statusWriter.close();
		}
		if (error == null) {
			closed.tryEmitEmpty();
		}
		else {
			closed.tryEmitError(error);
		}
	}

	/** Completes once the runtime has closed; fails as {@link #closeAsync()} does. */
	@Override
	public Mono<Void> onClose() {
		return closed.asMono();
	}

	/** Starts closing, as {@link #closeAsync()} does, and returns at once. */
	@Override
	public void dispose() {
		// A failure to close is logged where it happens; onClose() carries it for whoever waits.
		closeAsync().subscribe(null, error -> { });
	}

	/** Whether closing has begun. */
	@Override
	public boolean isDisposed() {
		return runtime.isClosed();
	}

	private void refuseIfClosed(String what) {
		if (runtime.isClosed()) {
			throw runtime.closedError(what);
		}
	}

	@Override
	public String toString() {
		return "Fiber[run " + runtime.runId() + ", backend " + runtime.backend().name() + "]";
	}
}
