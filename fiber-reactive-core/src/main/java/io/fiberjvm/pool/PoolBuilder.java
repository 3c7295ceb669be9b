package io.fiberjvm.pool;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import reactor.util.retry.Retry;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberRunnable;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.JavaSerialization;
import io.fiberjvm.codec.ShippedValues;

/**
 * A pool about to be opened: options accumulate on it, {@link #open()} starts it.
 *
 * <p>Immutable: each option returns a new builder. Defaults: no initializer, no resource requests,
 * idempotent functions with {@code Retry.max(2)} on worker loss (three attempts in all), adaptive
 * chunks, replacement workers after failed starts delayed from 200 ms doubling up to 10 s, one worker
 * per JVM.
 */
public final class PoolBuilder {

	private final Fiber fiber;
	private final PoolService service;
	private final int workers;
	private final String name;
	private final ResourceSpec resources;
	private final FiberRunnable initializer;
	private final boolean idempotent;
	private final Retry retry;
	private final int chunkSize;
	private final RestartBackoff backoff;
	private final int perProcess;

	private PoolBuilder(Fiber fiber, PoolService service, int workers, String name, ResourceSpec resources,
			FiberRunnable initializer, boolean idempotent, Retry retry, int chunkSize, RestartBackoff backoff, int perProcess) {
		this.fiber = fiber;
		this.service = service;
		this.workers = workers;
		this.name = name;
		this.resources = resources;
		this.initializer = initializer;
		this.idempotent = idempotent;
		this.retry = retry;
		this.chunkSize = chunkSize;
		this.backoff = backoff;
		this.perProcess = perProcess;
	}

	/** What {@link Fiber#pool(int)} returns; application code starts there. */
	public static PoolBuilder of(Fiber fiber, PoolService service, int workers, String name) {
		Objects.requireNonNull(fiber, "fiber");
		Objects.requireNonNull(service, "service");
		if (workers < 1) {
			throw new IllegalArgumentException("a pool needs at least 1 worker, not " + workers);
		}
		return new PoolBuilder(fiber, service, workers, name, ResourceSpec.NONE, null, true, ProcessPool.DEFAULT_RETRY, 0,
				RestartBackoff.DEFAULT, 1);
	}

	/** Names the pool; its workers are named after it. */
	public PoolBuilder name(String name) {
		Objects.requireNonNull(name, "name");
		if (!name.matches("[A-Za-z0-9][A-Za-z0-9-]{0,30}")) {
			throw new IllegalArgumentException("a pool name is 1 to 31 letters, digits and dashes, starting with a letter or digit; not '" + name + "'");
		}
		return new PoolBuilder(fiber, service, workers, name, resources, initializer, idempotent, retry, chunkSize, backoff, perProcess);
	}

	/** Cores for each worker JVM (fractions allowed). */
	public PoolBuilder cpu(double cpu) {
		return new PoolBuilder(fiber, service, workers, name, resources.withCpu(cpu), initializer, idempotent, retry, chunkSize, backoff, perProcess);
	}

	/** Memory for each worker JVM, as a size ({@code 512Mi}, {@code 2Gi}). */
	public PoolBuilder memory(String memory) {
		return new PoolBuilder(fiber, service, workers, name, resources.withMemory(memory), initializer, idempotent, retry, chunkSize, backoff, perProcess);
	}

	/** Whole GPUs for each worker JVM. */
	public PoolBuilder gpu(int gpu) {
		return new PoolBuilder(fiber, service, workers, name, resources.withGpu(gpu), initializer, idempotent, retry, chunkSize, backoff, perProcess);
	}

	/** Runs once in each worker JVM before its workers take tasks; a JVM whose initializer throws is replaced, with backoff. */
	public PoolBuilder initializer(FiberRunnable initializer) {
		return new PoolBuilder(fiber, service, workers, name, resources, Objects.requireNonNull(initializer, "initializer"),
				idempotent, retry, chunkSize, backoff, perProcess);
	}

	/** Whether functions are safe to run again after their worker was lost; see {@link FiberPool#idempotent(boolean)}. */
	public PoolBuilder idempotent(boolean idempotent) {
		return new PoolBuilder(fiber, service, workers, name, resources, initializer, idempotent, retry, chunkSize, backoff, perProcess);
	}

	/** How failed tasks are retried; see {@link FiberPool#retry(Retry)}. */
	public PoolBuilder retry(Retry retry) {
		return new PoolBuilder(fiber, service, workers, name, resources, initializer, idempotent, Objects.requireNonNull(retry, "retry"),
				chunkSize, backoff, perProcess);
	}

	/** Tasks per chunk; 0 adapts to task duration. */
	public PoolBuilder chunkSize(int tasks) {
		if (tasks < 0) {
			throw new IllegalArgumentException("chunk size " + tasks + " must be 0 (adaptive) or more");
		}
		return new PoolBuilder(fiber, service, workers, name, resources, initializer, idempotent, retry, tasks, backoff, perProcess);
	}

	/** The delay before replacing a worker that failed to get going: from {@code min}, doubling up to {@code max}. */
	public PoolBuilder restartBackoff(Duration min, Duration max) {
		return new PoolBuilder(fiber, service, workers, name, resources, initializer, idempotent, retry, chunkSize,
				new RestartBackoff(Objects.requireNonNull(min, "min"), Objects.requireNonNull(max, "max")), perProcess);
	}

	/**
	 * How many workers one worker JVM hosts (default 1). Each is a worker of its own: a thread with its own
	 * connection to the pool, its own session and its own share of the pool's pending table, so a pool of
	 * 1,024 workers can run in 32 JVMs of 32. Workers of one JVM share its heap, its initializer (run once
	 * per JVM) and its fate: when the JVM dies, the tasks of all its workers are retried. Use it when tasks
	 * mostly wait (sleep, I/O, a simulator in another process) or when JVMs are too heavy to start one per
	 * worker; for CPU-bound tasks one JVM per core is the better split.
	 */
	public PoolBuilder workersPerProcess(int workersPerProcess) {
		if (workersPerProcess < 1) {
			throw new IllegalArgumentException("workers per process must be at least 1, not " + workersPerProcess);
		}
		return new PoolBuilder(fiber, service, workers, name, resources, initializer, idempotent, retry, chunkSize, backoff,
				workersPerProcess);
	}

	/** Starts the pool: workers start in the background, and tasks wait for the first of them. Does not block. */
	public FiberPool open() {
		ShippedValues values = new ShippedValues(List.of());
		byte[] init = initializer == null ? null : values.writeFunction(initializer, "the pool's initializer");
		List<String> initAllow = initializer == null ? List.of() : List.of(JavaSerialization.packagePattern(initializer.getClass()));
		if (init != null) {
			// Read back here, so a capture the workers would refuse fails now and not in every worker.
			fiber.resolvingHandles(() -> values.readFunction(init, initAllow, Runnable.class, "the pool's initializer"));
		}
		PoolCore core = new PoolCore(fiber, service, name, workers, perProcess, resources, init, initAllow, backoff);
		core.open();
		return new ProcessPool(core, idempotent, retry, chunkSize);
	}
}
