package io.fiberjvm.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.pool.FiberPool;

/**
 * No-op tasks per second through a {@link FiberPool} of two worker JVMs, against a fixed thread pool of
 * two threads running the same tasks, in the same run.
 *
 * <p>One operation is one task: each invocation runs 10,000 tasks of {@code x -> x} and waits
 * for all their results, in input order ({@code map} on the pool, {@code invokeAll} on the threads).
 * {@code fiberPoolWithDeadline} runs them through a view with a task timeout (one minute, never reached), so
 * each task is armed with a deadline on its worker and disarmed: what a deadline costs.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(1)
public class PoolThroughputBenchmark {

	static final int TASKS = 10_000;
	static final int WORKERS = 2;
	static final Duration WAIT = Duration.ofMinutes(2);
	static final List<Integer> ITEMS = IntStream.range(0, TASKS).boxed().toList();

	/** The no-op task: the argument back. */
	static final FiberFunction<Integer, Integer> IDENTITY = item -> item;

	/**
	 * The pool and its two worker JVMs. A state of its own, so that the thread-pool trial runs without
	 * idle worker JVMs beside it.
	 */
	@State(Scope.Benchmark)
	public static class PoolState {

		private Fiber fiber;
		private FiberPool pool;

		@Setup(Level.Trial)
		public void start() throws InterruptedException {
			fiber = Fiber.open();
			pool = fiber.pool(WORKERS).open();
			// Workers start in the background; measuring before they are up would time JVM starts.
			PoolOverheadHarness.awaitWorkers(pool, WORKERS, Duration.ofMinutes(3));
		}

		@TearDown(Level.Trial)
		public void stop() throws InterruptedException {
			PoolOverheadHarness.closeAndWait(pool, WAIT);
			fiber.close();
		}
	}

	/** The baseline: a fixed thread pool of two threads in this JVM. */
	@State(Scope.Benchmark)
	public static class ThreadsState {

		private ExecutorService threads;

		@Setup(Level.Trial)
		public void start() {
			threads = Executors.newFixedThreadPool(WORKERS);
		}

		@TearDown(Level.Trial)
		public void stop() {
			threads.shutdownNow();
		}
	}

	@Benchmark
	@OperationsPerInvocation(TASKS)
	public long fiberPool(PoolState state) {
		return state.pool.map(IDENTITY, ITEMS).count().block(WAIT);
	}

	@Benchmark
	@OperationsPerInvocation(TASKS)
	public long fiberPoolWithDeadline(PoolState state) {
		return state.pool.taskTimeout(Duration.ofMinutes(1)).map(IDENTITY, ITEMS).count().block(WAIT);
	}

	@Benchmark
	@OperationsPerInvocation(TASKS)
	public long fixedThreadPool(ThreadsState state) throws InterruptedException, ExecutionException {
		List<Callable<Integer>> tasks = new ArrayList<>(TASKS);
		for (Integer item : ITEMS) {
			tasks.add(() -> item);
		}
		long results = 0;
		for (Future<Integer> future : state.threads.invokeAll(tasks)) {
			future.get();
			results++;
		}
		return results;
	}
}
