package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import io.fiberjvm.Fiber;
import io.fiberjvm.examples.es.EvolutionStrategies;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolStats;

/**
 * The Fiber paper's Figure 10 on one machine: evolution strategies (50 iterations, a population of
 * 2,048 as 1,024 antithetic pairs, a shared noise table) on one pool, timed against its number of
 * workers ({@code --workers 32,64,...,1024}). Every evaluation waits a fixed {@code --delay-ms}, so two
 * cores can stand in for a cluster: the baseline in the same run is the ideal time,
 * {@code iterations × population × delay / workers}. Workers share JVMs, {@code --per-process} to one.
 *
 * <p>Each point: a new pool, {@code --warmups} warm-up iterations (20: with 32 JVMs each JVM sees few tasks an
 * iteration, and its code must be compiled before it is timed), then the timed iterations; the pool's counters must
 * show no task failed, lost or retried. Writes {@code es-scaling.md} and {@code es-scaling.svg} into
 * {@code --out}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.EsScalingHarness [--workers 32,64,128,256,512,1024]
 *     [--per-process 32] [--warmups 20] [--iterations 50] [--population 2048] [--delay-ms 5] [--worker-flags "-Xmx64m ..."] [--out benchmarks/results]
 * </pre>
 */
public final class EsScalingHarness {

	private static final Duration LONG = Duration.ofMinutes(10);

	private EsScalingHarness() {
	}

	/** One measured pool size. */
	private record Point(int workers, int jvms, double startSeconds, double seconds, double idealSeconds, double masterCpu,
			double workerCpu, long failed, long lost, long retried, long masterRss, double objective) {
	}

	public static void main(String[] args) throws Exception {
		List<Integer> workers = List.of(32, 64, 128, 256, 512, 1024);
		int perProcess = 32;
		int iterations = 50;
		int population = 2048;
		long delayMillis = 5;
		String flags = PoolScalingHarness.SMALL_WORKER;
		int warmups = 20;
		Path out = Path.of("benchmarks", "results");
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--workers" -> workers = Arrays.stream(args[++i].split(",")).map(Integer::parseInt).toList();
				case "--per-process" -> perProcess = Integer.parseInt(args[++i]);
				case "--iterations" -> iterations = Integer.parseInt(args[++i]);
				case "--population" -> population = Integer.parseInt(args[++i]);
				case "--delay-ms" -> delayMillis = Long.parseLong(args[++i]);
				case "--worker-flags" -> flags = args[++i];
				case "--warmups" -> warmups = Integer.parseInt(args[++i]);
				case "--out" -> out = Path.of(args[++i]);
				default -> throw new IllegalArgumentException("unknown option " + args[i]
						+ " (--workers 32,64, --per-process N, --iterations N, --population N, --delay-ms N, --warmups N, --worker-flags FLAGS, --out DIR)");
			}
		}
		if (population % 2 != 0) {
			throw new IllegalArgumentException("--population " + population + " must be even: evaluations go in antithetic pairs");
		}
		List<Point> points = new ArrayList<>();
		for (int n : workers) {
			points.add(measure(n, perProcess, warmups, iterations, population, Duration.ofMillis(delayMillis), flags));
		}
		String report = report(points, perProcess, warmups, iterations, population, delayMillis, flags);
		System.out.print(report);
		Files.createDirectories(out);
		Files.writeString(out.resolve("es-scaling.md"), report);
		LineChart chart = new LineChart("Evolution strategies: " + iterations + " iterations, population " + population + ", "
				+ delayMillis + " ms per evaluation", "workers", "seconds")
				.add(new LineChart.Series("FiberPool", "#1f77b4", points.stream().map(p -> new double[] {p.workers(), p.seconds()}).toList()))
				.add(new LineChart.Series("ideal (work / workers)", "#999999",
						points.stream().map(p -> new double[] {p.workers(), p.idealSeconds()}).toList()));
		Files.writeString(out.resolve("es-scaling.svg"), chart.svg());
	}

	private static Point measure(int workers, int perProcess, int warmups, int iterations, int population, Duration delay, String flags)
			throws IOException, InterruptedException {
		int pairs = population / 2;
		try (Fiber fiber = Fiber.builder().set("jvm-options", flags).open()) {
			long begin = System.nanoTime();
			FiberPool pool = EvolutionStrategies.pool(fiber, workers, perProcess);
			PoolOverheadHarness.awaitWorkers(pool, workers, LONG);
			double startSeconds = (System.nanoTime() - begin) / 1e9;
			int jvms = pool.workers().size();
			Random random = new Random(11);
			double[] theta = EvolutionStrategies.optimise(fiber, pool, new double[3], warmups, pairs, delay, random, false);
			List<ProcessHandle> workerJvms = pool.workers().stream().map(p -> ProcessHandle.of(p.pid().orElseThrow()).orElseThrow()).toList();
			Duration cpuBefore = cpu(ProcessHandle.current());
			Duration workersBefore = cpu(workerJvms);
			long start = System.nanoTime();
			theta = EvolutionStrategies.optimise(fiber, pool, theta, iterations, pairs, delay, random, false);
			double seconds = (System.nanoTime() - start) / 1e9;
			double cpu = (cpu(ProcessHandle.current()).minus(cpuBefore).toNanos() / 1e9) / seconds;
			double workerCpu = (cpu(workerJvms).minus(workersBefore).toNanos() / 1e9) / seconds;
			PoolStats after = pool.stats();
			long rss = PoolScalingHarness.rss(ProcessHandle.current().pid());
			PoolOverheadHarness.closeAndWait(pool, LONG);
			double ideal = (double) iterations * population * delay.toNanos() / 1e9 / workers;
			System.err.printf(Locale.ROOT, "%d workers in %d JVMs: started in %.1f s, %d iterations in %.2f s (ideal %.2f s), master CPU %.0f%%, "
					+ "worker JVMs' CPU %.0f%%, failed %d, lost %d, retried %d, θ = %s%n", workers, jvms, startSeconds, iterations, seconds, ideal, cpu * 100, workerCpu * 100,
					after.failed(), after.lost(), after.retried(), Arrays.toString(theta));
			// Counted over the whole pool, warm-up included: none may fail, be lost or be retried.
			return new Point(workers, jvms, startSeconds, seconds, ideal, cpu, workerCpu, after.failed(), after.lost(), after.retried(), rss,
					EvolutionStrategies.objective(theta));
		}
	}

	private static String report(List<Point> points, int perProcess, int warmups, int iterations, int population, long delayMillis, String flags) {
		StringBuilder report = new StringBuilder();
		report.append(String.format(Locale.ROOT, "%d iterations after %d warm-up iterations, population %d (%d antithetic pairs, a pair "
				+ "a task), %d ms per evaluation, up to %d workers per JVM; %d cores, %s %s%n%n", iterations, warmups, population,
				population / 2, delayMillis, perProcess,
				Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"), System.getProperty("java.version")));
		report.append("| workers | JVMs × workers | pool start s | ").append(iterations)
				.append(" iterations s | ideal s | ideal / measured | master CPU (cores) | worker JVMs' CPU (cores) | tasks failed / lost / retried | master RSS | final objective |\n");
		report.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (Point p : points) {
			report.append(String.format(Locale.ROOT, "| %d | %d × %d | %.1f | %.2f | %.2f | %.2f | %.2f | %.2f | %d / %d / %d | %d MiB | %.6f |%n",
					p.workers(), p.jvms(), Math.min(p.workers(), perProcess), p.startSeconds(), p.seconds(), p.idealSeconds(),
					p.idealSeconds() / p.seconds(), p.masterCpu(), p.workerCpu(), p.failed(), p.lost(), p.retried(),
					p.masterRss() >> 20, p.objective()));
		}
		report.append("\nWorker JVM flags: `").append(flags).append("`.\n");
		return report.toString();
	}

	/** CPU time used so far by {@code process}. */
	private static Duration cpu(ProcessHandle process) {
		return process.info().totalCpuDuration().orElse(Duration.ZERO);
	}

	private static Duration cpu(List<ProcessHandle> processes) {
		return processes.stream().map(EsScalingHarness::cpu).reduce(Duration.ZERO, Duration::plus);
	}
}
