package io.fiberjvm.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import reactor.core.Disposable;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.queue.FiberQueue;

/**
 * Three fast paths side by side, Python Fiber, Python's multiprocessing and this project in one run: how long a
 * pool of 8 takes until every worker has answered, the round trip of an item through two queues and a child
 * process (p50, p99), and no-op tasks per second on a pool of 2.
 *
 * <p>The contract: this project's figures are measured first, in this JVM, through the public API only; then
 * {@link PlainRSocketFloor} measures what the transport costs with no Fiber in it (a floor column), and
 * {@code benchmarks/python/fast_path.py} runs each probe for Python Fiber (local backend) and for multiprocessing,
 * alone on the machine, at most ten minutes a probe. A Python column that cannot run (no {@code python3}, no
 * {@code import fiber}) or a probe that fails is reported as not run, with the reason. Every probe uses the same
 * protocol on every side ({@link FastPathReport} says it in the report). Writes {@code fast-path.md} into
 * {@code --out} and prints it; progress goes to standard error. {@code --probes} runs only the probes named, on every
 * side, and writes {@code fast-path-<probes>.md} instead, so a partial run leaves the whole table alone.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.FastPathHarness [--runs 3] [--warmups 3]
 *     [--round-trips 10000] [--noop-tasks 200000] [--chunk-size 1000] [--noop-warmup-seconds 20] [--out benchmarks/results]
 *     [--python-script benchmarks/python/fast_path.py] [--probes pool-start,queue-echo,noop]
 * </pre>
 */
public final class FastPathHarness {

	static final String POOL_START = "pool-start";
	static final String QUEUE_ECHO = "queue-echo";
	static final String NOOP = "noop";
	static final int POOL_START_WORKERS = 8;
	static final int NOOP_WORKERS = 2;
	private static final Duration WAIT = Duration.ofMinutes(3);
	private static final Duration PROBE_LIMIT = Duration.ofMinutes(10);
	private static final byte[] ITEM = new byte[64];

	/** A pool-start task: sleeps 1 ms, so one worker cannot take a whole round before the others are up, and answers its JVM's pid. */
	private static final FiberFunction<Integer, Long> PID_AFTER_A_MILLISECOND = item -> {
		PoolOverheadHarness.pause(1_000_000L);
		return ProcessHandle.current().pid();
	};
	/** The no-op task: the argument back. */
	private static final FiberFunction<Integer, Integer> IDENTITY = item -> item;

	private FastPathHarness() {
	}

	/** The command line. */
	record Options(int runs, int warmups, int roundTrips, int noopTasks, int chunkSize, int noopWarmupSeconds, Path out,
			Path pythonScript, List<String> probes) {

		static final List<String> ALL = List.of(POOL_START, QUEUE_ECHO, NOOP);

		static Options parse(String[] args) {
			int[] numbers = {3, 3, 10_000, 200_000, 1000, 20};
			Path[] paths = {Path.of("benchmarks", "results"), Path.of("benchmarks", "python", "fast_path.py")};
			List<List<String>> probes = new ArrayList<>(List.of(ALL));
			HarnessArgs.pairs(args, (name, value) -> {
				switch (name) {
					case "--probes" -> probes.set(0, probes(value));
					case "--runs" -> numbers[0] = HarnessArgs.positive(name, value);
					case "--warmups" -> numbers[1] = HarnessArgs.positive(name, value);
					case "--round-trips" -> numbers[2] = HarnessArgs.positive(name, value);
					case "--noop-tasks" -> numbers[3] = HarnessArgs.positive(name, value);
					case "--chunk-size" -> numbers[4] = HarnessArgs.positive(name, value);
					case "--noop-warmup-seconds" -> numbers[5] = HarnessArgs.positive(name, value);
					case "--out" -> paths[0] = Path.of(value);
					case "--python-script" -> paths[1] = Path.of(value);
					default -> throw new IllegalArgumentException("unknown option " + name);
				}
			});
			return new Options(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5], paths[0], paths[1],
					probes.get(0));
		}

		/** The probes named in {@code value}, separated by commas, in the order this harness runs them. */
		private static List<String> probes(String value) {
			List<String> named = new ArrayList<>();
			for (String name : value.split(",", -1)) {
				String probe = name.trim();
				if (!ALL.contains(probe)) {
					throw new IllegalArgumentException("--probes: '" + probe + "' is not a probe; name one or more of "
							+ String.join(", ", ALL) + ", separated by commas");
				}
				named.add(probe);
			}
			return ALL.stream().filter(named::contains).toList();
		}

		/** The report's file: {@code fast-path.md} for every probe, else one named after those run. */
		String reportName() {
			return probes.equals(ALL) ? "fast-path.md" : "fast-path-" + String.join("-", probes) + ".md";
		}

		/** Whether {@code probe} is among those asked for; one that is not is recorded in {@code column} as such. */
		boolean selects(String probe, FastPathColumn column) {
			if (probes.contains(probe)) {
				return true;
			}
			column.missing(probe, "not asked for (--probes " + String.join(",", probes) + ")");
			return false;
		}
	}

	public static void main(String[] args) throws Exception {
		Options options = HarnessArgs.parseOrExit(args, Options::parse, "usage: FastPathHarness [--runs 3] [--warmups 3] [--round-trips 10000] [--noop-tasks 200000] "
					+ "[--chunk-size 1000] [--noop-warmup-seconds 20] [--out benchmarks/results] [--python-script benchmarks/python/fast_path.py] "
					+ "[--probes pool-start,queue-echo,noop]");
		Files.createDirectories(options.out());
		FastPathColumn ours = new FastPathColumn("this project");
		if (options.selects(POOL_START, ours)) {
			poolStart(options, ours);
		}
		boolean runEcho = options.selects(QUEUE_ECHO, ours);
		boolean runNoop = options.selects(NOOP, ours);
		if (runEcho || runNoop) {
			try (Fiber fiber = Fiber.open()) {
				// Bind the runtime's server before timing, as a program that made a queue or a pool before would have.
				fiber.address().block(WAIT);
				if (runEcho) {
					queueEcho(fiber, options, ours);
				}
				if (runNoop) {
					noop(fiber, options, ours);
				}
			}
		}
		ours.about(String.format(Locale.ROOT, "%s %s, local backend, one worker per JVM", System.getProperty("java.vm.name"),
				System.getProperty("java.version")));
		FastPathColumn floor = PlainRSocketFloor.measure(options);
		// The Python columns run after this JVM's children have ended, so the two cores are theirs.
		FastPathColumn pythonFiber = python(options, "Python Fiber", "fiber");
		FastPathColumn multiprocessing = python(options, "multiprocessing", "multiprocessing");

		String markdown = new FastPathReport(options, List.of(pythonFiber, multiprocessing, floor, ours)).markdown();
		Files.writeString(options.out().resolve(options.reportName()), markdown, StandardCharsets.UTF_8);
		PoolOverheadHarness.printReport(markdown);
		progress("wrote " + options.reportName() + " in " + options.out().toAbsolutePath());
	}

	/**
	 * Seconds from {@code open()} of a pool of 8 until 8 distinct worker JVMs have answered: each run the first pool of a
	 * new {@code Fiber} (eight JVMs start), then the next pool of that {@code Fiber} once the first has closed (its idle
	 * worker JVMs serve it).
	 */
	private static void poolStart(Options options, FastPathColumn column) throws InterruptedException {
		// Untimed: a freshly built jar's first children write its class archive, as Python writes its bytecode caches once.
		try (Fiber fiber = Fiber.open()) {
			poolUntilAllAnswered(fiber, 0, "warm-up, writes the class archive");
		}
		for (int run = 1; run <= options.runs(); run++) {
			try (Fiber fiber = Fiber.open()) {
				// Bind the runtime's server before timing, as a program that made a queue before would have.
				fiber.address().block(WAIT);
				double cold = poolUntilAllAnswered(fiber, run, "first pool of a new Fiber");
				double reused = poolUntilAllAnswered(fiber, run, "next pool");
				column.add(POOL_START, "seconds", cold);
				column.add(POOL_START, "reused_seconds", reused);
			}
		}
	}

	private static double poolUntilAllAnswered(Fiber fiber, int run, String which) throws InterruptedException {
		List<Integer> round = items(4 * POOL_START_WORKERS);
		long start = System.nanoTime();
		FiberPool pool = fiber.pool(POOL_START_WORKERS).chunkSize(1).open();
		double seconds;
		int rounds = 0;
		try {
			Set<Long> answered = new HashSet<>();
			while (answered.size() < POOL_START_WORKERS) {
				if (System.nanoTime() - start > PROBE_LIMIT.toNanos()) {
					throw new IllegalStateException("only " + answered.size() + " of " + POOL_START_WORKERS
							+ " pool workers answered within " + PROBE_LIMIT);
				}
				answered.addAll(pool.map(PID_AFTER_A_MILLISECOND, round).collectList().block(WAIT));
				rounds++;
			}
			seconds = (System.nanoTime() - start) / 1e9;
		}
		finally {
			PoolOverheadHarness.closeAndWait(pool, WAIT);
		}
		progress(String.format(Locale.ROOT, "pool-start run %d, %s: %d workers answered after %.3f s (%d rounds)", run, which,
				POOL_START_WORKERS, seconds, rounds));
		return seconds;
	}

	/**
	 * A 64-byte item put on queue A, taken by a child process with the default {@code receive()} and put on queue B,
	 * taken here by the default {@code receive()}: p50 and p99 of the round trip over each pass.
	 */
	private static void queueEcho(Fiber fiber, Options options, FastPathColumn column) throws InterruptedException {
		FiberQueue<byte[]> there = fiber.queue(byte[].class, 64);
		FiberQueue<byte[]> home = fiber.queue(byte[].class, 64);
		FiberProcess echo = fiber.process(() -> there.receive().concatMap(home::put).then().block()).name("echo").start().block(WAIT);
		echo.onRunning().block(WAIT);
		BlockingQueue<byte[]> back = new LinkedBlockingQueue<>();
		Disposable receiving = home.receive().subscribe(back::add);
		try {
			for (int warmup = 0; warmup < options.warmups(); warmup++) {
				echoPass(there, back, options.roundTrips());
			}
			for (int run = 1; run <= options.runs(); run++) {
				long[] nanos = echoPass(there, back, options.roundTrips());
				Arrays.sort(nanos);
				double p50 = percentile(nanos, 0.50) / 1e3;
				double p99 = percentile(nanos, 0.99) / 1e3;
				progress(String.format(Locale.ROOT, "queue-echo run %d: p50 %.1f µs, p99 %.1f µs over %d round trips", run, p50, p99,
						nanos.length));
				column.add(QUEUE_ECHO, "p50_us", p50);
				column.add(QUEUE_ECHO, "p99_us", p99);
			}
		}
		finally {
			receiving.dispose();
			// Closing the queue completes the child's receive(), so the child ends.
			there.closeAsync().block(WAIT);
			echo.onExit().block(WAIT);
		}
	}

	/** Nanoseconds of each of {@code roundTrips} round trips, one item in flight at a time. */
	private static long[] echoPass(FiberQueue<byte[]> there, BlockingQueue<byte[]> back, int roundTrips) throws InterruptedException {
		long[] nanos = new long[roundTrips];
		for (int i = 0; i < roundTrips; i++) {
			long start = System.nanoTime();
			there.put(ITEM).block(WAIT);
			byte[] item = back.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
			nanos[i] = System.nanoTime() - start;
			if (item == null || item.length != ITEM.length) {
				throw new IllegalStateException("the echo child did not hand the item back within " + WAIT);
			}
		}
		return nanos;
	}

	/** The nearest-rank percentile of ascending {@code sorted}, as fast_path.py takes it. */
	static long percentile(long[] sorted, double fraction) {
		int rank = Math.max(1, (int) Math.ceil(fraction * sorted.length));
		return sorted[rank - 1];
	}

	/**
	 * No-op tasks per second through a pool of 2 with the chunk size the Python columns use: the new pool's first pass
	 * apart, then untimed passes until {@code --warmups} passes and {@code --noop-warmup-seconds} have gone (the JIT
	 * compilers of three JVMs share two cores), then the timed runs.
	 */
	private static void noop(Fiber fiber, Options options, FastPathColumn column) throws InterruptedException {
		FiberPool pool = fiber.pool(NOOP_WORKERS).chunkSize(options.chunkSize()).open();
		try {
			PoolOverheadHarness.awaitWorkers(pool, NOOP_WORKERS, WAIT);
			List<Integer> items = items(options.noopTasks());
			long start = System.nanoTime();
			double first = items.size() / noopPass(pool, items);
			progress(String.format(Locale.ROOT, "noop first pass: %,.0f tasks/s", first));
			column.add(NOOP, "first_pass_tasks_per_second", first);
			long warmUntil = start + Duration.ofSeconds(options.noopWarmupSeconds()).toNanos();
			for (int warmup = 1; warmup < options.warmups() || System.nanoTime() - warmUntil < 0; warmup++) {
				noopPass(pool, items);
			}
			for (int run = 1; run <= options.runs(); run++) {
				double rate = items.size() / noopPass(pool, items);
				progress(String.format(Locale.ROOT, "noop run %d: %,.0f tasks/s", run, rate));
				column.add(NOOP, "tasks_per_second", rate);
			}
		}
		finally {
			PoolOverheadHarness.closeAndWait(pool, WAIT);
		}
	}

	private static double noopPass(FiberPool pool, List<Integer> items) {
		long start = System.nanoTime();
		Long results = pool.map(IDENTITY, items).count().block(PROBE_LIMIT);
		double seconds = (System.nanoTime() - start) / 1e9;
		if (results == null || results != items.size()) {
			throw new IllegalStateException("the pool returned " + results + " results for " + items.size() + " tasks");
		}
		return seconds;
	}

	/** Runs every probe of fast_path.py for {@code library}; a probe that cannot run is recorded as missing, with why. */
	private static FastPathColumn python(Options options, String name, String library) throws Exception {
		FastPathColumn column = new FastPathColumn(name);
		Optional<String> cannot = OverheadPeers.pythonMissing(options.pythonScript(), name);
		for (String probe : Options.ALL) {
			if (!options.selects(probe, column)) {
				continue;
			}
			if (cannot.isPresent()) {
				column.missing(probe, cannot.get());
				continue;
			}
			List<String> command = new ArrayList<>(List.of(OverheadPeers.onPath("python3").orElseThrow().toString(),
					options.pythonScript().toString(), probe, "--library", library, "--runs", Integer.toString(options.runs()),
					"--warmups", Integer.toString(options.warmups())));
			switch (probe) {
				case POOL_START -> command.addAll(List.of("--workers", Integer.toString(POOL_START_WORKERS)));
				case QUEUE_ECHO -> command.addAll(List.of("--round-trips", Integer.toString(options.roundTrips())));
				default -> command.addAll(List.of("--workers", Integer.toString(NOOP_WORKERS), "--tasks",
						Integer.toString(options.noopTasks()), "--chunksize", Integer.toString(options.chunkSize()),
						"--warmup-seconds", Integer.toString(options.noopWarmupSeconds())));
			}
			progress("running " + String.join(" ", command));
			ExternalProgram program = ExternalProgram.run(command, PROBE_LIMIT);
			String failure = program.skipped() != null ? program.skipped() + ": skipping " + name : program.failure(name + " " + probe);
			if (failure != null) {
				progress(failure);
				column.missing(probe, failure);
				// Python Fiber missing is the same answer for every probe: ask once.
				if (program.skipped() != null) {
					cannot = Optional.of(failure);
				}
				continue;
			}
			// fast_path.py names the probe first ("noop: python 3.11.7, ..."); the rest is the same for every probe.
			column.about(program.about().replaceFirst("^" + probe + ": ", ""));
			int values = 0;
			for (String line : program.lines()) {
				String[] fields = line.split(",");
				if (!line.startsWith("#") && fields.length == 4 && fields[0].equals(probe)) {
					column.add(probe, fields[2], Double.parseDouble(fields[3]));
					values++;
				}
			}
			if (values == 0) {
				column.missing(probe, "`" + String.join(" ", command) + "` printed no " + probe + " lines");
			}
		}
		return column;
	}

	/** The Integers 0 to {@code count - 1}. */
	private static List<Integer> items(int count) {
		return IntStream.range(0, count).boxed().toList();
	}

	static void progress(String message) {
		System.err.println("[fast-path] " + message);
	}
}
