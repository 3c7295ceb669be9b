package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;

/**
 * The ceiling of one pool master, and what its JVMs cost in memory: no-op tasks per second through
 * one {@link FiberPool} against its number of worker JVMs ({@code --workers 1,2,4,8,16}), and the
 * resident size (VmRSS) of the master and of one idle worker JVM, with the default worker flags and
 * with the small-worker flags below, in one run.
 *
 * <p>Each point: a warm-up map of {@code --tasks / 4} no-op tasks, then a timed map of {@code --tasks}.
 * Writes {@code pool-scaling.md} and {@code pool-scaling.svg} into {@code --out}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.PoolScalingHarness [--workers 1,2,4,8,16] [--tasks 200000] [--out benchmarks/results]
 * </pre>
 */
public final class PoolScalingHarness {

	/** Worker JVM flags that keep an idle worker small: a serial collector, a small heap and stacks, C1 only, small code cache and metaspace. */
	static final String SMALL_WORKER = "-XX:+UseSerialGC -Xmx64m -Xss512k -XX:TieredStopAtLevel=1 -XX:ReservedCodeCacheSize=24m "
			+ "-XX:MaxMetaspaceSize=96m -XX:CICompilerCount=1";

	private static final Duration LONG = Duration.ofMinutes(10);
	private static final FiberFunction<Integer, Integer> NOOP = x -> x;

	private PoolScalingHarness() {
	}

	/** One measured configuration. */
	private record Point(int workers, double tasksPerSecond, long masterRss, long workerRss) {
	}

	public static void main(String[] args) throws Exception {
		List<Integer> workers = List.of(1, 2, 4, 8, 16);
		int tasks = 200_000;
		Path out = Path.of("benchmarks", "results");
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--workers" -> workers = java.util.Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
				case "--tasks" -> tasks = Integer.parseInt(args[++i]);
				case "--out" -> out = Path.of(args[++i]);
				default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--workers 1,2,4, --tasks N, --out DIR)");
			}
		}
		List<Point> normal = new ArrayList<>();
		List<Point> small = new ArrayList<>();
		for (int n : workers) {
			normal.add(measure(n, tasks, ""));
			small.add(measure(n, tasks, SMALL_WORKER));
		}
		StringBuilder report = new StringBuilder();
		report.append(String.format(Locale.ROOT, "%d no-op tasks per point, %d cores, %s %s%n%n", tasks,
				Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"), System.getProperty("java.version")));
		report.append("| worker JVMs | tasks/s (default flags) | tasks/s (small-worker flags) | master RSS | idle worker RSS (default) | idle worker RSS (small) |\n");
		report.append("|---|---|---|---|---|---|\n");
		for (int i = 0; i < workers.size(); i++) {
			Point d = normal.get(i);
			Point s = small.get(i);
			report.append(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f | %d MiB | %d MiB | %d MiB |%n", d.workers(), d.tasksPerSecond(),
					s.tasksPerSecond(), d.masterRss() >> 20, d.workerRss() >> 20, s.workerRss() >> 20));
		}
		report.append("\nSmall-worker flags: `").append(SMALL_WORKER).append("` (as `fiber.jvm-options`).\n");
		System.out.print(report);
		Files.createDirectories(out);
		Files.writeString(out.resolve("pool-scaling.md"), report.toString());
		LineChart chart = new LineChart("No-op tasks per second through one pool master", "worker JVMs", "tasks per second")
				.add(new LineChart.Series("default worker flags", "#1f77b4",
						normal.stream().map(p -> new double[] {p.workers(), p.tasksPerSecond()}).toList()))
				.add(new LineChart.Series("small-worker flags", "#ff7f0e",
						small.stream().map(p -> new double[] {p.workers(), p.tasksPerSecond()}).toList()));
		Files.writeString(out.resolve("pool-scaling.svg"), chart.svg());
	}

	private static Point measure(int workers, int tasks, String jvmOptions) throws IOException {
		try (Fiber fiber = Fiber.builder().set("jvm-options", jvmOptions).open()) {
			FiberPool pool = fiber.pool(workers).open();
			pool.map(NOOP, Flux.range(0, tasks / 4)).blockLast(LONG);
			long start = System.nanoTime();
			pool.map(NOOP, Flux.range(0, tasks)).blockLast(LONG);
			double perSecond = tasks / ((System.nanoTime() - start) / 1e9);
			// Idle now: every worker has finished its tasks.
			long master = rss(ProcessHandle.current().pid());
			List<Long> workerRss = new ArrayList<>();
			for (FiberProcess worker : pool.workers()) {
				OptionalLong pid = worker.pid();
				if (pid.isPresent()) {
					workerRss.add(rss(pid.getAsLong()));
				}
			}
			workerRss.sort(null);
			long median = workerRss.isEmpty() ? 0 : workerRss.get(workerRss.size() / 2);
			System.err.printf(Locale.ROOT, "%d workers%s: %,.0f tasks/s, master %d MiB, worker %d MiB%n", workers,
					jvmOptions.isEmpty() ? "" : " (small)", perSecond, master >> 20, median >> 20);
			return new Point(workers, perSecond, master, median);
		}
	}

	/** Resident set size in bytes, from /proc. */
	static long rss(long pid) throws IOException {
		long kib = Measures.procStatusKiB(pid, "VmRSS:");
		return kib < 0 ? 0 : kib * 1024;
	}
}
