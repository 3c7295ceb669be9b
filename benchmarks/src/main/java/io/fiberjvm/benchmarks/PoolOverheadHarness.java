package io.fiberjvm.benchmarks;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolStats;

/**
 * The Fiber paper's framework-overhead test: the wall time of one second of ideal work, cut into
 * more and more, shorter and shorter tasks, on a {@link FiberPool} of five worker JVMs, on a fixed
 * thread pool of five threads, on Python's {@code multiprocessing.Pool(5)}, on Python Fiber's {@code fiber.Pool(5)}
 * (local backend, one task a chunk) and on Apache Spark {@code local[5]} through its Java API, all in one run; plus
 * the throughput of no-op tasks on a two-worker {@link FiberPool} against a fixed thread pool of two.
 *
 * <p>The contract: each executor gets {@code --warmups} warm-up passes (5) of every configuration, then {@code --runs}
 * timed passes, and the report gives the mean wall time per configuration and executor and its ratio
 * to the thread pool's. A timed pass runs all tasks of a configuration and waits for all results, in
 * input order. Tasks of whole milliseconds call {@link Thread#sleep(long)}; shorter ones park with
 * {@link LockSupport#parkNanos(long)} until their time is up, so no task spins. The Python columns come
 * from {@code benchmarks/python/pool_overhead.py}; without {@code python3} on the {@code PATH} they are
 * skipped with a message, and so is Python Fiber's when {@code python3} cannot import {@code fiber}. The Spark column runs {@code benchmarks/spark} (built only with {@code -Pspark}) in
 * a JVM of its own, with the same protocol; without that build it is skipped with a message. Writes
 * {@code pool-overhead.md}, {@code .csv}, {@code .svg} (bars per configuration) and {@code -ratio.svg} (wall
 * time over ideal, a line per executor) into
 * {@code --out} and prints the Markdown to standard output; progress goes to standard error.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.PoolOverheadHarness [--runs 3] [--out benchmarks/results]
 *     [--python-script benchmarks/python/pool_overhead.py] [--spark-classpath benchmarks/spark/target/spark-classpath.txt]
 *     [--configs 5:1s,50:100ms,...] [--noop-tasks 200000]
 * </pre>
 */
public final class PoolOverheadHarness {

	/** Workers of every executor in the sleep test, as in the paper. */
	static final int WORKERS = 5;
	/** Workers of every executor in the no-op test: one per core of the project's machine. */
	static final int NOOP_WORKERS = 2;
	private static final Duration WORKER_START = Duration.ofMinutes(3);
	private static final Duration POOL_CLOSE = Duration.ofMinutes(1);
	static final List<Config> PAPER_CONFIGS = List.of(new Config(5, 1_000_000_000L), new Config(50, 100_000_000L),
			new Config(500, 10_000_000L), new Config(5000, 1_000_000L), new Config(50_000, 100_000L));
	static final String THREADS = "thread pool";
	static final String FIBER = "FiberPool";

	/** The no-op task: the argument back. */
	private static final FiberFunction<Integer, Integer> IDENTITY = item -> item;

	private PoolOverheadHarness() {
	}

	public static void main(String[] args) throws Exception {
		OverheadOptions options = HarnessArgs.parseOrExit(args, OverheadOptions::parse, "usage: PoolOverheadHarness [--runs 3] [--out benchmarks/results] [--python-script "
					+ "benchmarks/python/pool_overhead.py] [--spark-classpath benchmarks/spark/target/spark-classpath.txt] [--configs 5:1s,50:100ms,500:10ms,5000:1ms,50000:100us] [--noop-tasks 200000]");
		Files.createDirectories(options.out());
		List<Config> configs = options.configs();
		List<List<Double>> threadWalls = emptyLists(configs.size());
		List<List<Double>> fiberWalls = emptyLists(configs.size());
		List<Double> threadNoopRates = new ArrayList<>();
		List<Double> fiberNoopRates = new ArrayList<>();
		PoolStats fiberStats;

		try (Fiber fiber = Fiber.open()) {
			FiberPool pool = fiber.pool(WORKERS).open();
			ExecutorService threads = Executors.newFixedThreadPool(WORKERS);
			try {
				awaitWorkers(pool, WORKERS, WORKER_START);
				List<List<Integer>> inputs = configs.stream().map(c -> items(c.tasks())).toList();
				// One function object per configuration, so the warm-up also warms the pool's function cache.
				List<FiberFunction<Integer, Integer>> tasks = configs.stream().map(c -> pausing(c.taskNanos())).toList();
				for (int warmup = 1; warmup <= options.warmups(); warmup++) {
					progress("warm-up pass " + warmup);
					for (int c = 0; c < configs.size(); c++) {
						timeFiberPool(pool, tasks.get(c), configs.get(c), inputs.get(c));
						timeThreadPool(threads, configs.get(c), inputs.get(c));
					}
				}
				// Executors alternate within a run, so a change in the machine's load hits both alike.
				for (int run = 1; run <= options.runs(); run++) {
					for (int c = 0; c < configs.size(); c++) {
						Config config = configs.get(c);
						double fiberWall = timeFiberPool(pool, tasks.get(c), config, inputs.get(c));
						double threadWall = timeThreadPool(threads, config, inputs.get(c));
						fiberWalls.get(c).add(fiberWall);
						threadWalls.get(c).add(threadWall);
						progress(String.format(Locale.ROOT, "run %d, %s: %s %.3f s, %s %.3f s", run, config.label(), FIBER, fiberWall,
								THREADS, threadWall));
					}
				}
				fiberStats = pool.stats();
			}
			finally {
				threads.shutdownNow();
				closeAndWait(pool, POOL_CLOSE);
			}

			// The five-worker pool has closed first: two of its worker JVMs serve this pool, the other three wait idle.
			FiberPool small = fiber.pool(NOOP_WORKERS).open();
			ExecutorService twoThreads = Executors.newFixedThreadPool(NOOP_WORKERS);
			try {
				awaitWorkers(small, NOOP_WORKERS, WORKER_START);
				List<Integer> items = items(options.noopTasks());
				for (int warmup = 1; warmup <= options.warmups(); warmup++) {
					progress("no-op warm-up pass " + warmup);
					timeFiberNoop(small, items);
					timeThreadNoop(twoThreads, items);
				}
				for (int run = 1; run <= options.runs(); run++) {
					double fiberRate = items.size() / timeFiberNoop(small, items);
					double threadRate = items.size() / timeThreadNoop(twoThreads, items);
					fiberNoopRates.add(fiberRate);
					threadNoopRates.add(threadRate);
					progress(String.format(Locale.ROOT, "no-op run %d: %s %,.0f tasks/s, %s %,.0f tasks/s", run, FIBER, fiberRate,
							THREADS, threadRate));
				}
			}
			finally {
				twoThreads.shutdownNow();
				closeAndWait(small, POOL_CLOSE);
			}
		}

		// Python and Spark run alone, after every worker JVM has ended, so the two cores are theirs.
		List<ExternalColumn> external = List.of(OverheadPeers.runPython(options), OverheadPeers.runPythonFiber(options),
				OverheadPeers.runSpark(options));

		PoolOverheadReport report = new PoolOverheadReport(options, configs, summaries(threadWalls), summaries(fiberWalls), external,
				Summary.of(threadNoopRates), Summary.of(fiberNoopRates), fiberStats);
		String markdown = report.markdown();
		Files.writeString(options.out().resolve("pool-overhead.md"), markdown, StandardCharsets.UTF_8);
		Files.writeString(options.out().resolve("pool-overhead.csv"), report.csv(), StandardCharsets.UTF_8);
		Files.writeString(options.out().resolve("pool-overhead.svg"), report.svg(), StandardCharsets.UTF_8);
		Files.writeString(options.out().resolve("pool-overhead-ratio.svg"), report.overheadSvg(), StandardCharsets.UTF_8);
		printReport(markdown);
		progress("wrote pool-overhead.md, .csv, .svg and -ratio.svg in " + options.out().toAbsolutePath());
	}

	/** Waits until {@code pool} has {@code workers} workers taking tasks; workers start in the background. */
	static void awaitWorkers(FiberPool pool, int workers, Duration timeout) throws InterruptedException {
		long start = System.nanoTime();
		long deadline = start + timeout.toNanos();
		while (pool.stats().workers() < workers) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException("only " + pool.stats().workers() + " of " + workers + " pool workers started within "
						+ timeout);
			}
			Thread.sleep(50);
		}
		progress(String.format(Locale.ROOT, "%d pool workers ready after %.1f s", workers, seconds(System.nanoTime() - start)));
	}

	/** A task that pauses for {@code nanos} and hands its argument back. Captures only a {@code long}, so it ships. */
	static FiberFunction<Integer, Integer> pausing(long nanos) {
		return item -> {
			pause(nanos);
			return item;
		};
	}

	/** {@link Thread#sleep(long)} for whole milliseconds, as the paper's tasks do; parking below that, where sleep cannot go. */
	static void pause(long nanos) {
		if (nanos % 1_000_000 == 0) {
			try {
				Thread.sleep(nanos / 1_000_000);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted in a sleep task", e);
			}
			return;
		}
		// parkNanos may return early (spuriously or on unpark): park again for what is left.
		long deadline = System.nanoTime() + nanos;
		for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
	}

	private static double timeFiberPool(FiberPool pool, FiberFunction<Integer, Integer> task, Config config, List<Integer> items) {
		long start = System.nanoTime();
		Long results = pool.map(task, items).count().block(config.timeout());
		double wall = seconds(System.nanoTime() - start);
		checkCount(results, items.size(), FIBER);
		return wall;
	}

	private static double timeThreadPool(ExecutorService threads, Config config, List<Integer> items)
			throws InterruptedException, ExecutionException {
		long nanos = config.taskNanos();
		long start = System.nanoTime();
		List<Callable<Integer>> tasks = new ArrayList<>(items.size());
		for (Integer item : items) {
			tasks.add(() -> {
				pause(nanos);
				return item;
			});
		}
		long results = waitAll(threads.invokeAll(tasks));
		double wall = seconds(System.nanoTime() - start);
		checkCount(results, items.size(), THREADS);
		return wall;
	}

	/** Seconds to run {@code items} no-op tasks on the pool. */
	private static double timeFiberNoop(FiberPool pool, List<Integer> items) {
		long start = System.nanoTime();
		Long results = pool.map(IDENTITY, items).count().block(Duration.ofMinutes(10));
		double wall = seconds(System.nanoTime() - start);
		checkCount(results, items.size(), FIBER);
		return wall;
	}

	/** Seconds to run {@code items} no-op tasks on the thread pool. */
	private static double timeThreadNoop(ExecutorService threads, List<Integer> items) throws InterruptedException, ExecutionException {
		long start = System.nanoTime();
		List<Callable<Integer>> tasks = new ArrayList<>(items.size());
		for (Integer item : items) {
			tasks.add(() -> item);
		}
		long results = waitAll(threads.invokeAll(tasks));
		double wall = seconds(System.nanoTime() - start);
		checkCount(results, items.size(), THREADS);
		return wall;
	}

	/** Takes every result in order, so a task that threw fails the pass. */
	private static long waitAll(List<Future<Integer>> futures) throws InterruptedException, ExecutionException {
		long results = 0;
		for (Future<Integer> future : futures) {
			future.get();
			results++;
		}
		return results;
	}

	private static void checkCount(Long results, int expected, String executor) {
		if (results == null || results != expected) {
			throw new IllegalStateException(executor + " returned " + results + " results for " + expected + " tasks");
		}
	}

	/** Closes the pool and returns once it has closed and its workers have ended: what the next measurement needs. */
	/** Prints a report to the process's standard output as UTF-8, whatever the platform's encoding. */
	static void printReport(String markdown) {
		PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
		out.print(markdown);
		out.flush();
	}

	static void closeAndWait(FiberPool pool, Duration timeout) {
		pool.close();
		pool.onClose().block(timeout);
	}

	private static List<Integer> items(int count) {
		return IntStream.range(0, count).boxed().toList();
	}

	private static List<List<Double>> emptyLists(int count) {
		List<List<Double>> lists = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			lists.add(new ArrayList<>());
		}
		return lists;
	}

	private static List<Summary> summaries(List<List<Double>> walls) {
		return walls.stream().map(Summary::of).toList();
	}

	private static double seconds(long nanos) {
		return nanos / 1e9;
	}

	static void progress(String message) {
		System.err.println("[pool-overhead] " + message);
	}

	/** One configuration of the sleep test: {@code tasks} tasks that each pause for {@code taskNanos}. */
	record Config(int tasks, long taskNanos) {

		/** Reads {@code TASKS:DURATION}, the duration in {@code s}, {@code ms} or {@code us}: {@code 500:10ms}. */
		static Config parse(String text) {
			String[] parts = text.trim().split(":");
			if (parts.length != 2) {
				throw new IllegalArgumentException("a configuration is TASKS:DURATION, like 500:10ms; not '" + text + "'");
			}
			String duration = parts[1].trim();
			String number = duration.replaceAll("[a-zµ]+$", "");
			long unit = switch (duration.substring(number.length())) {
				case "s" -> 1_000_000_000L;
				case "ms" -> 1_000_000L;
				case "us", "µs" -> 1_000L;
				default -> throw new IllegalArgumentException("a task duration ends in s, ms or us; not '" + duration + "'");
			};
			int tasks = Integer.parseInt(parts[0].trim());
			long nanos = Long.parseLong(number) * unit;
			if (tasks < 1 || nanos < 1) {
				throw new IllegalArgumentException("a configuration needs at least one task of a positive duration; not '" + text + "'");
			}
			return new Config(tasks, nanos);
		}

		/** {@code 500 × 10 ms}. */
		String label() {
			return String.format(Locale.ROOT, "%,d × %s", tasks, durationText(taskNanos));
		}

		/** The task's duration in seconds, as plain decimal text for the Python script: {@code 0.0001}. */
		String taskSecondsText() {
			return BigDecimal.valueOf(taskNanos).movePointLeft(9).stripTrailingZeros().toPlainString();
		}

		/** The wall time with no overhead at all: the work shared perfectly among {@code workers}. */
		double idealSeconds(int workers) {
			return tasks * (double) taskNanos / 1e9 / workers;
		}

		/** Long enough for a pool several times slower than ideal, short enough that a hang ends the run. */
		Duration timeout() {
			return Duration.ofNanos(tasks * taskNanos).multipliedBy(20).plusMinutes(5);
		}

		private static String durationText(long nanos) {
			if (nanos % 1_000_000_000L == 0) {
				return nanos / 1_000_000_000L + " s";
			}
			if (nanos % 1_000_000L == 0) {
				return nanos / 1_000_000L + " ms";
			}
			if (nanos % 1_000L == 0) {
				return nanos / 1_000L + " µs";
			}
			return nanos + " ns";
		}
	}

	/** Mean, smallest and largest of one executor's timed runs. */
	record Summary(double mean, double min, double max) {

		static Summary of(List<Double> values) {
			double sum = 0;
			double min = Double.POSITIVE_INFINITY;
			double max = Double.NEGATIVE_INFINITY;
			for (double value : values) {
				sum += value;
				min = Math.min(min, value);
				max = Math.max(max, value);
			}
			return new Summary(sum / values.size(), min, max);
		}
	}
}
