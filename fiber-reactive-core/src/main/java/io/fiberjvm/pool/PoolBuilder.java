package io.fiberjvm.pool;

import java.time.Duration;

import reactor.util.retry.Retry;

import io.fiberjvm.FiberRunnable;

/**
 * A pool about to be opened, from {@link io.fiberjvm.Fiber#pool(int)}: options accumulate on it,
 * {@link #open()} starts it.
 *
 * <p>Immutable: each option returns a new builder. Defaults: no initializer, no resource requests, idempotent
 * functions with {@code Retry.max(2)} on worker loss (three attempts in all), adaptive chunks, no task timeout, replacement
 * workers after failed starts delayed from 200 ms doubling up to 10 s, one worker per JVM.
 */
public interface PoolBuilder {

	/** Names the pool (1 to 31 letters, digits and dashes); its workers are named after it. */
	PoolBuilder name(String name);

	/** Cores for each worker JVM (fractions allowed). */
	PoolBuilder cpu(double cpu);

	/** Memory for each worker JVM, as a size ({@code 512Mi}, {@code 2Gi}). */
	PoolBuilder memory(String memory);

	/** Whole GPUs for each worker JVM. */
	PoolBuilder gpu(int gpu);

	/** Where the pool's worker processes may run on a cluster, laid over the configured placement. */
	PoolBuilder placement(io.fiberjvm.Placement placement);

	/**
	 * Runs once in each worker JVM before its workers take tasks; a JVM whose initializer throws failed to start: it is
	 * replaced, with backoff, and enough of them in a row fail the pool's calls ({@link WorkerStartException}).
	 */
	PoolBuilder initializer(FiberRunnable initializer);

	/** Whether functions are safe to run again after their worker was lost; see {@link FiberPool#idempotent(boolean)}. */
	PoolBuilder idempotent(boolean idempotent);

	/** How failed tasks are retried; see {@link FiberPool#retry(Retry)}. */
	PoolBuilder retry(Retry retry);

	/** Tasks per chunk; 0 adapts to task duration. */
	PoolBuilder chunkSize(int tasks);

	/**
	 * How long each task may run on its worker ({@link Duration#ZERO}, the default: no limit); see
	 * {@link FiberPool#taskTimeout(Duration)}, whose views may change it per call.
	 */
	PoolBuilder taskTimeout(Duration timeout);

	/**
	 * The delay before starting a worker after failed starts (default 200 ms to 10 s): from {@code min}, doubling up
	 * to {@code max}, each delay jittered by up to half of it (Reactor's {@code RetryBackoffSpec}) and kept within
	 * the two, so pools failing together do not restart in lockstep.
	 */
	PoolBuilder restartBackoff(Duration min, Duration max);

	/**
	 * How many workers one worker JVM hosts (default 1). Each is a worker of its own: a thread with its own
	 * connection to the pool, its own session and its own share of the pool's pending table, so a pool of
	 * 1,024 workers can run in 32 JVMs of 32. Workers of one JVM share its heap, its initializer (run once
	 * per JVM) and its fate: when the JVM dies, the tasks of all its workers are retried. Use it when tasks
	 * mostly wait (sleep, I/O, a simulator in another process) or when JVMs are too heavy to start one per
	 * worker; for CPU-bound tasks one JVM per core is the better split.
	 */
	PoolBuilder workersPerProcess(int workersPerProcess);

	/** Starts the pool: workers start in the background, and tasks wait for the first of them. Does not block. */
	FiberPool open();
}
