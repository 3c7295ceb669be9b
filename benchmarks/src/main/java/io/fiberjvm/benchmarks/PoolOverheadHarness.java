package io.fiberjvm.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
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
 * thread pool of five threads, on Python's {@code multiprocessing.Pool(5)} and on Apache Spark
 * {@code local[5]} through its Java API, all in one run; plus
 * the throughput of no-op tasks on a two-worker {@link FiberPool} against a fixed thread pool of two.
 *
 * <p>The contract: each executor gets {@code --warmups} warm-up passes (5) of every configuration, then {@code --runs}
 * timed passes, and the report gives the mean wall time per configuration and executor and its ratio
 * to the thread pool's. A timed pass runs all tasks of a configuration and waits for all results, in
 * input order. Tasks of whole milliseconds call {@link Thread#sleep(long)}; shorter ones park with
 * {@link LockSupport#parkNanos(long)} until their time is up, so no task spins. The Python column comes
 * from {@code benchmarks/python/pool_overhead.py}; without {@code python3} on the {@code PATH} it is
 * skipped with a message. The Spark column runs {@code benchmarks/spark} (built only with {@code -Pspark}) in
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
	private static final List<Config> PAPER_CONFIGS = List.of(new Config(5, 1_000_000_000L), new Config(50, 100_000_000L),
			new Config(500, 10_000_000L), new Config(5000, 1_000_000L), new Config(50_000, 100_000L));
	private static final String THREADS = "thread pool";
	private static final String FIBER = "FiberPool";
	private static final String PYTHON = "multiprocessing.Pool";
	private static final String SPARK = "Spark local[5]";

	/** The no-op task: the argument back. */
	private static final FiberFunction<Integer, Integer> IDENTITY = item -> item;

	private PoolOverheadHarness() {
	}

	public static void main(String[] args) throws Exception {
		Options options;
		try {
			options = Options.parse(args);
		}
		catch (IllegalArgumentException e) {
			System.err.println(e.getMessage());
			System.err.println("usage: PoolOverheadHarness [--runs 3] [--out benchmarks/results] [--python-script "
					+ "benchmarks/python/pool_overhead.py] [--spark-classpath benchmarks/spark/target/spark-classpath.txt] [--configs 5:1s,50:100ms,500:10ms,5000:1ms,50000:100us] [--noop-tasks 200000]");
			System.exit(2);
			return;
		}
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

			// The five-worker pool is gone first, so its idle JVMs do not share the two cores with this test.
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
		List<ExternalColumn> external = List.of(runPython(options), runSpark(options));

		Report report = new Report(options, configs, summaries(threadWalls), summaries(fiberWalls), external,
				Summary.of(threadNoopRates), Summary.of(fiberNoopRates), fiberStats);
		String markdown = report.markdown();
		Files.writeString(options.out().resolve("pool-overhead.md"), markdown, StandardCharsets.UTF_8);
		Files.writeString(options.out().resolve("pool-overhead.csv"), report.csv(), StandardCharsets.UTF_8);
		Files.writeString(options.out().resolve("pool-overhead.svg"), report.svg(), StandardCharsets.UTF_8);
		Files.writeString(options.out().resolve("pool-overhead-ratio.svg"), report.overheadSvg(), StandardCharsets.UTF_8);
		PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
		out.print(markdown);
		out.flush();
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
	static void closeAndWait(FiberPool pool, Duration timeout) {
		pool.close();
		pool.onClose().block(timeout);
	}

	/** Runs the Python script once for every configuration, or says why the column is skipped. */
	private static ExternalColumn runPython(Options options) throws IOException, InterruptedException {
		Optional<Path> python3 = onPath("python3");
		if (python3.isEmpty()) {
			return ExternalColumn.skipped(PYTHON, "python3 not found: skipping multiprocessing.Pool");
		}
		if (!Files.isRegularFile(options.pythonScript())) {
			return ExternalColumn.skipped(PYTHON, options.pythonScript().toAbsolutePath() + " not found (run from the repository root "
					+ "or pass --python-script): skipping multiprocessing.Pool");
		}
		List<String> command = new ArrayList<>(List.of(python3.get().toString(), options.pythonScript().toString(),
				"--runs", Integer.toString(options.runs()), "--processes", Integer.toString(WORKERS)));
		return runExternal(PYTHON, command, options);
	}

	/** Spark's own --add-opens for JDK 17, which its launcher scripts would pass; a plain java command must. */
	private static final List<String> SPARK_JVM_OPTIONS = List.of("-XX:+IgnoreUnrecognizedVMOptions",
			"--add-opens=java.base/java.lang=ALL-UNNAMED", "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED",
			"--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-opens=java.base/java.io=ALL-UNNAMED",
			"--add-opens=java.base/java.net=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
			"--add-opens=java.base/java.util=ALL-UNNAMED", "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
			"--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED", "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
			"--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED",
			"--add-opens=java.base/sun.security.action=ALL-UNNAMED", "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED",
			"-Djdk.reflect.useDirectMethodHandle=false");

	/** Runs Spark's column (module benchmarks/spark, built with -Pspark) in a JVM of its own, or says why it is skipped. */
	private static ExternalColumn runSpark(Options options) throws IOException, InterruptedException {
		Path classpathFile = options.sparkClasspath();
		Path jar = classpathFile.resolveSibling("benchmarks-spark.jar");
		if (!Files.isRegularFile(classpathFile) || !Files.isRegularFile(jar)) {
			return ExternalColumn.skipped(SPARK, classpathFile.toAbsolutePath() + " not found: build with `mvn -B -DskipTests -Pspark "
					+ "package` (from the repository root) to add Spark's column; skipping Spark");
		}
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(SPARK_JVM_OPTIONS);
		command.addAll(List.of("-cp", jar + File.pathSeparator + Files.readString(classpathFile).trim(),
				"io.fiberjvm.benchmarks.spark.SparkOverhead", "--runs", Integer.toString(options.runs()),
				"--warmups", Integer.toString(options.warmups()), "--workers", Integer.toString(WORKERS)));
		return runExternal(SPARK, command, options);
	}

	/**
	 * Runs {@code command} with each configuration as a {@code TASKS:SECONDS} argument; it answers in the Python script's protocol: a {@code #} line saying what ran,
	 * then {@code tasks,seconds,mean,min,max} per configuration.
	 */
	private static ExternalColumn runExternal(String name, List<String> command, Options options) throws IOException, InterruptedException {
		for (Config config : options.configs()) {
			command.add(config.tasks() + ":" + config.taskSecondsText());
		}
		progress("running " + (command.size() > 12 ? String.join(" ", command.subList(0, 2)) + " … " + command.get(command.size() - 1)
				: String.join(" ", command)));
		Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
		process.getOutputStream().close();
		List<Summary> results = new ArrayList<>();
		String about = "";
		try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				if (line.startsWith("#")) {
					about = line.substring(1).trim();
				}
				else if (!line.isBlank()) {
					String[] fields = line.trim().split(",");
					Config expected = options.configs().get(results.size());
					if (Integer.parseInt(fields[0]) != expected.tasks()) {
						throw new IllegalStateException(name + " answered '" + line + "' where " + expected.label() + " was due");
					}
					results.add(new Summary(Double.parseDouble(fields[2]), Double.parseDouble(fields[3]), Double.parseDouble(fields[4])));
				}
			}
		}
		int exit = process.waitFor();
		if (exit != 0 || results.size() != options.configs().size()) {
			return ExternalColumn.skipped(name, command.get(0) + " exited with " + exit + " after " + results.size() + " of "
					+ options.configs().size() + " configurations: skipping " + name);
		}
		return new ExternalColumn(name, results, about, null);
	}

	/** The executable {@code command} in the first {@code PATH} directory that has one. */
	private static Optional<Path> onPath(String command) {
		String path = System.getenv("PATH");
		if (path == null) {
			return Optional.empty();
		}
		for (String dir : path.split(File.pathSeparator)) {
			Path candidate = Path.of(dir.isEmpty() ? "." : dir, command);
			if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
				return Optional.of(candidate);
			}
		}
		return Optional.empty();
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

	private static void progress(String message) {
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

	/**
	 * What an executor in another process (Python's multiprocessing, Spark) reported: one summary per
	 * configuration and its self-description, or, when {@code skipped} is not null, why there is none.
	 */
	record ExternalColumn(String name, List<Summary> results, String about, String skipped) {

		static ExternalColumn skipped(String name, String reason) {
			System.err.println(reason);
			return new ExternalColumn(name, List.of(), "", reason);
		}

		boolean present() {
			return skipped == null;
		}
	}

	/** The command line, with the paper's defaults. */
	record Options(int runs, int warmups, Path out, Path pythonScript, Path sparkClasspath, List<Config> configs, int noopTasks) {

		static Options parse(String[] args) {
			int runs = 3;
			// JIT-compiled code in six JVMs (parent and workers) is the steady state users run in; one pass is not enough to reach it.
			int warmups = 5;
			Path out = Path.of("benchmarks", "results");
			Path script = Path.of("benchmarks", "python", "pool_overhead.py");
			Path spark = Path.of("benchmarks", "spark", "target", "spark-classpath.txt");
			List<Config> configs = PAPER_CONFIGS;
			int noopTasks = 200_000;
			for (int i = 0; i < args.length; i++) {
				String name = args[i];
				if (i + 1 >= args.length) {
					throw new IllegalArgumentException("no value after " + name);
				}
				String value = args[++i];
				switch (name) {
					case "--runs" -> runs = Integer.parseInt(value);
					case "--warmups" -> warmups = Integer.parseInt(value);
					case "--out" -> out = Path.of(value);
					case "--python-script" -> script = Path.of(value);
					case "--spark-classpath" -> spark = Path.of(value);
					case "--configs" -> configs = Arrays.stream(value.split(",")).map(Config::parse).toList();
					case "--noop-tasks" -> noopTasks = Integer.parseInt(value);
					default -> throw new IllegalArgumentException("unknown option " + name);
				}
			}
			if (runs < 1 || noopTasks < 1 || warmups < 1) {
				throw new IllegalArgumentException("--runs, --warmups and --noop-tasks must be at least 1");
			}
			return new Options(runs, warmups, out, script, spark, configs, noopTasks);
		}
	}

	/** The results, rendered as Markdown, CSV and SVG. */
	record Report(Options options, List<Config> configs, List<Summary> threads, List<Summary> fiber, List<ExternalColumn> external,
			Summary threadNoop, Summary fiberNoop, PoolStats fiberStats) {

		private static final String[] COLOURS = {"#4c78a8", "#f58518", "#54a24b", "#e45756"};

		/** One executor's wall times, a summary per configuration. */
		private record Column(String name, List<Summary> results) {

			double mean(int configuration) {
				return results.get(configuration).mean();
			}
		}

		/** The executors with results, the thread pool first. */
		private List<Column> columns() {
			List<Column> columns = new ArrayList<>(List.of(new Column(THREADS, threads), new Column(FIBER, fiber)));
			external.stream().filter(ExternalColumn::present).forEach(column -> columns.add(new Column(column.name(), column.results())));
			return columns;
		}

		String markdown() {
			List<Column> columns = columns();
			List<String> names = columns.stream().map(Column::name).toList();
			StringBuilder md = new StringBuilder();
			md.append("# Pool overhead: ").append(String.join(", ", names)).append("\n\n");
			String abouts = external.stream().filter(ExternalColumn::present).map(ExternalColumn::about).reduce("", (x, y) -> x + "; " + y);
			md.append(String.format(Locale.ROOT, "%s, %s %s, %d cores%s. %d workers per executor; each configuration is N tasks "
					+ "of duration d, ideal wall time N × d / %d. Mean wall time of %d timed runs after %d warm-up passes (Python: one); ratios "
					+ "are to the thread pool in the same run.\n\n",
					ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE), System.getProperty("java.vm.name"),
					System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), abouts, WORKERS, WORKERS,
					options.runs(), options.warmups()));
			md.append("Java tasks of whole milliseconds call `Thread.sleep`; shorter ones park (`LockSupport.parkNanos`) until "
					+ "their time is up. Python tasks call `time.sleep`, through `Pool.map` with its default chunk size. FiberPool "
					+ "uses `map(...)` (results in input order) with its adaptive chunks; the thread pool `invokeAll`; Spark "
					+ "`parallelize(items).map(task).collect()` with its default partitioning.\n\n");
			md.append("| configuration | ideal s |");
			names.forEach(name -> md.append(' ').append(name).append(" s |"));
			names.subList(1, names.size()).forEach(name -> md.append(' ').append(name).append(" / threads |"));
			md.append("\n|---|---|").append("---|".repeat(2 * names.size() - 1)).append('\n');
			for (int c = 0; c < configs.size(); c++) {
				md.append(String.format(Locale.ROOT, "| %s | %.3f |", configs.get(c).label(), configs.get(c).idealSeconds(WORKERS)));
				for (Column column : columns) {
					md.append(String.format(Locale.ROOT, " %.3f |", column.mean(c)));
				}
				for (Column column : columns.subList(1, columns.size())) {
					md.append(String.format(Locale.ROOT, " %.2f |", column.mean(c) / columns.get(0).mean(c)));
				}
				md.append('\n');
			}
			external.stream().filter(column -> !column.present())
					.forEach(column -> md.append("\n").append(column.skipped()).append(".\n"));
			md.append(String.format(Locale.ROOT, "\nFiberPool counters after the timed runs: %d tasks completed, %d failed, "
					+ "%d lost with a worker, %d retried; %d workers started, %d lost.\n", fiberStats.completed(), fiberStats.failed(),
					fiberStats.lost(), fiberStats.retried(), fiberStats.workersStarted(), fiberStats.workersLost()));

			md.append(String.format(Locale.ROOT, "\n## No-op task throughput, %d workers\n\n", NOOP_WORKERS));
			md.append(String.format(Locale.ROOT, "%,d tasks of `x -> x` on Integers per run; mean of %d timed runs after %d "
					+ "warm-up passes.\n\n", options.noopTasks(), options.runs(), options.warmups()));
			md.append("| executor | mean tasks/s | min | max | ratio to thread pool |\n|---|---|---|---|---|\n");
			md.append(String.format(Locale.ROOT, "| %s (%d threads) | %,.0f | %,.0f | %,.0f | 1.00 |\n", THREADS, NOOP_WORKERS,
					threadNoop.mean(), threadNoop.min(), threadNoop.max()));
			md.append(String.format(Locale.ROOT, "| %s (%d worker JVMs) | %,.0f | %,.0f | %,.0f | %.3f |\n", FIBER, NOOP_WORKERS,
					fiberNoop.mean(), fiberNoop.min(), fiberNoop.max(), fiberNoop.mean() / threadNoop.mean()));
			return md.toString();
		}

		String csv() {
			StringBuilder csv = new StringBuilder("benchmark,executor,workers,tasks,task_seconds,runs,mean,min,max,unit,ratio_to_thread_pool\n");
			for (int c = 0; c < configs.size(); c++) {
				Config config = configs.get(c);
				double base = threads.get(c).mean();
				for (Column column : columns()) {
					csvRow(csv, "sleep", column.name(), WORKERS, config.tasks(), config.taskSecondsText(), column.results().get(c),
							"wall_seconds", column.mean(c) / base);
				}
			}
			csvRow(csv, "noop", THREADS, NOOP_WORKERS, options.noopTasks(), "0", threadNoop, "tasks_per_second", 1.0);
			csvRow(csv, "noop", FIBER, NOOP_WORKERS, options.noopTasks(), "0", fiberNoop, "tasks_per_second",
					fiberNoop.mean() / threadNoop.mean());
			return csv.toString();
		}

		private void csvRow(StringBuilder csv, String benchmark, String executor, int workers, int tasks, String taskSeconds,
				Summary summary, String unit, double ratio) {
			csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%d,%.6f,%.6f,%.6f,%s,%.4f\n", benchmark, executor, workers, tasks,
					taskSeconds, options.runs(), summary.mean(), summary.min(), summary.max(), unit, ratio));
		}

		/** The paper's Figure 9 view: each executor's wall time over the ideal, one line per executor, against the task count. */
		String overheadSvg() {
			LineChart chart = new LineChart("Wall time / ideal, " + WORKERS + " workers, 1 s of work cut into N tasks",
					"tasks (N)", "wall time / ideal");
			List<Column> columns = columns();
			for (int e = 0; e < columns.size(); e++) {
				List<double[]> points = new ArrayList<>();
				for (int c = 0; c < configs.size(); c++) {
					points.add(new double[] {configs.get(c).tasks(), columns.get(e).mean(c) / configs.get(c).idealSeconds(WORKERS)});
				}
				chart.add(new LineChart.Series(columns.get(e).name(), COLOURS[e], points));
			}
			return chart.svg();
		}

		/** Grouped bars: one group per configuration, one bar per executor, a dashed mark at the ideal time. */
		String svg() {
			List<Column> columns = columns();
			List<String> names = columns.stream().map(Column::name).toList();
			double[][] means = new double[configs.size()][names.size()];
			double top = 0;
			for (int c = 0; c < configs.size(); c++) {
				for (int e = 0; e < names.size(); e++) {
					means[c][e] = columns.get(e).mean(c);
					top = Math.max(top, means[c][e]);
				}
				top = Math.max(top, configs.get(c).idealSeconds(WORKERS));
			}
			double step = niceStep(top * 1.15 / 5);
			double axisTop = Math.ceil(top * 1.15 / step) * step;

			int width = 960;
			int height = 560;
			int left = 80;
			int right = 30;
			int plotTop = 100;
			int plotBottom = height - 80;
			double plotWidth = width - left - right;
			double plotHeight = plotBottom - plotTop;
			double groupWidth = plotWidth / configs.size();
			double barWidth = groupWidth * 0.75 / names.size();

			StringBuilder svg = new StringBuilder();
			svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
			svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
					+ "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n", width, height, width, height));
			svg.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height));
			svg.append(LineChart.text(width / 2.0, 30, "middle", 18, "Framework overhead: wall time per configuration, " + WORKERS
					+ " workers per executor (mean of " + options.runs() + " runs)"));

			// Legend, one row under the title.
			double legendX = left;
			for (int e = 0; e < names.size(); e++) {
				svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"52\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", legendX,
						COLOURS[e]));
				svg.append(LineChart.text(legendX + 20, 64, "start", 13, names.get(e)));
				legendX += 40 + names.get(e).length() * 7.5;
			}
			svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"59\" x2=\"%.1f\" y2=\"59\" stroke=\"black\" "
					+ "stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\n", legendX, legendX + 24));
			svg.append(LineChart.text(legendX + 30, 64, "start", 13, "ideal (N × d / " + WORKERS + ")"));

			// Y axis: grid lines and tick labels.
			for (double tick = 0; tick <= axisTop + step / 2; tick += step) {
				double y = plotBottom - tick / axisTop * plotHeight;
				svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", left, y,
						width - right, y));
				svg.append(LineChart.text(left - 8, y + 4, "end", 12, trimNumber(tick)));
			}
			svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, plotTop,
					left, plotBottom));
			svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, plotBottom,
					width - right, plotBottom));
			svg.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"14\" "
					+ "transform=\"rotate(-90 20 %.1f)\">wall time (s)</text>\n", plotTop + plotHeight / 2, plotTop + plotHeight / 2));
			svg.append(LineChart.text(left + plotWidth / 2, height - 22, "middle", 14, "configuration (tasks × task duration)"));

			for (int c = 0; c < configs.size(); c++) {
				double groupLeft = left + c * groupWidth + groupWidth * 0.125;
				for (int e = 0; e < names.size(); e++) {
					double value = means[c][e];
					double barHeight = value / axisTop * plotHeight;
					double x = groupLeft + e * barWidth;
					svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
							+ "<title>%s, %s: %.3f s</title></rect>\n", x, plotBottom - barHeight, barWidth - 2, barHeight, COLOURS[e],
							LineChart.escape(names.get(e)), LineChart.escape(configs.get(c).label()), value));
					svg.append(LineChart.text(x + (barWidth - 2) / 2, plotBottom - barHeight - 4, "middle", 10, significant(value)));
				}
				double idealY = plotBottom - configs.get(c).idealSeconds(WORKERS) / axisTop * plotHeight;
				svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" "
						+ "stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\n", groupLeft - 4, idealY, groupLeft + names.size() * barWidth + 2,
						idealY));
				svg.append(LineChart.text(left + (c + 0.5) * groupWidth, plotBottom + 20, "middle", 13, configs.get(c).label()));
			}
			svg.append("</svg>\n");
			return svg.toString();
		}

		/** A round step for about five ticks: 1, 2 or 5 times a power of ten. */
		private static double niceStep(double rough) {
			double power = Math.pow(10, Math.floor(Math.log10(rough)));
			double fraction = rough / power;
			return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
		}

		/** Three significant digits, so bars of milliseconds and of seconds are both labelled readably. */
		private static String significant(double value) {
			return new BigDecimal(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
		}

		private static String trimNumber(double value) {
			return BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
		}

	}
}
