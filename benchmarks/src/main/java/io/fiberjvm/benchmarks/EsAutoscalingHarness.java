package io.fiberjvm.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.Fiber;
import io.fiberjvm.examples.es.EvolutionStrategies;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolBuilder;
import io.fiberjvm.pool.PoolScaling;
import io.fiberjvm.pool.PoolStats;

/**
 * Evolution strategies whose evaluations change cost mid-run (cheap, then {@code --dearer} times dearer, then cheap
 * again, {@code --iterations} iterations each) on three pools in one run: an autoscaling pool between {@code --min}
 * and {@code --max} workers, and fixed pools of {@code --min} and of {@code --max} workers. For each: the wall time of
 * the whole run, and the worker-seconds it held (the workers taking tasks, sampled every 20 ms, summed over time).
 * Evaluations wait rather than compute ({@code --delay-ms} each when cheap), so two cores can stand in for a
 * cluster. {@code --runs} rounds (2), the three pools in turn within each. Writes {@code es-autoscaling.md} into
 * {@code --out} and prints it; progress goes to standard error.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.EsAutoscalingHarness [--runs 2] [--min 2] [--max 16]
 *     [--iterations 10] [--pairs 64] [--delay-ms 5] [--dearer 10] [--out benchmarks/results]
 * </pre>
 */
public final class EsAutoscalingHarness {

	private static final Duration SAMPLE = Duration.ofMillis(20);
	/** Longer than a cheap iteration takes on the fewest workers, shorter than a dear one. */
	private static final Duration QUEUE_TIME = Duration.ofSeconds(1);

	private EsAutoscalingHarness() {
	}

	/** The command line. */
	record Options(int runs, int min, int max, int iterations, int pairs, int delayMillis, int dearer, Path out) {

		static Options parse(String[] args) {
			int[] numbers = {2, 2, 16, 10, 64, 5, 10};
			Path[] out = {Path.of("benchmarks", "results")};
			HarnessArgs.pairs(args, (name, value) -> {
				switch (name) {
					case "--runs" -> numbers[0] = HarnessArgs.positive(name, value);
					case "--min" -> numbers[1] = HarnessArgs.positive(name, value);
					case "--max" -> numbers[2] = HarnessArgs.positive(name, value);
					case "--iterations" -> numbers[3] = HarnessArgs.positive(name, value);
					case "--pairs" -> numbers[4] = HarnessArgs.positive(name, value);
					case "--delay-ms" -> numbers[5] = HarnessArgs.positive(name, value);
					case "--dearer" -> numbers[6] = HarnessArgs.positive(name, value);
					case "--out" -> out[0] = Path.of(value);
					default -> throw new IllegalArgumentException("unknown option " + name);
				}
			});
			if (numbers[1] > numbers[2]) {
				throw new IllegalArgumentException("--min " + numbers[1] + " is more than --max " + numbers[2]);
			}
			return new Options(numbers[0], numbers[1], numbers[2], numbers[3], numbers[4], numbers[5], numbers[6], out[0]);
		}
	}

	/** One pool's run: its wall time, the worker-seconds it held, and its counters at the end. */
	record Outcome(String pool, double seconds, double workerSeconds, int mostWorkers, PoolStats stats) {
	}

	public static void main(String[] args) throws Exception {
		Options options = HarnessArgs.parseOrExit(args, Options::parse, "usage: EsAutoscalingHarness [--runs 2] [--min 2] [--max 16] "
				+ "[--iterations 10] [--pairs 64] [--delay-ms 5] [--dearer 10] [--out benchmarks/results]");
		Files.createDirectories(options.out());
		List<List<Outcome>> rounds = new ArrayList<>();
		// Every pool starts its own JVMs: none is handed the idle JVMs of the pool before it.
		try (Fiber fiber = Fiber.builder().set("jvm-options", EvolutionStrategies.SMALL_WORKER_FLAGS).set("worker-idle-time", "0s").open()) {
			// One short run first, so every pool is timed with this JVM's code compiled.
			run(fiber, "warm-up", f -> f.pool(options.min()), options, 1);
			for (int round = 1; round <= options.runs(); round++) {
				List<Outcome> outcomes = new ArrayList<>();
				outcomes.add(run(fiber, "autoscaling " + options.min() + "–" + options.max(),
						f -> f.pool(PoolScaling.between(options.min(), options.max()).queueTime(QUEUE_TIME)
								.idleAfter(Duration.ofSeconds(2))), options, options.iterations()));
				outcomes.add(run(fiber, "fixed " + options.min(), f -> f.pool(options.min()), options, options.iterations()));
				outcomes.add(run(fiber, "fixed " + options.max(), f -> f.pool(options.max()), options, options.iterations()));
				rounds.add(outcomes);
			}
		}
		String markdown = markdown(options, rounds);
		Files.writeString(options.out().resolve("es-autoscaling.md"), markdown, StandardCharsets.UTF_8);
		PoolOverheadHarness.printReport(markdown);
	}

	/** Cheap, dear, cheap: {@code iterations} iterations each, on a pool {@code builder} makes, continuing one θ. */
	private static Outcome run(Fiber fiber, String name, Function<Fiber, PoolBuilder> builder, Options options, int iterations) {
		FiberPool pool = EvolutionStrategies.pool(builder.apply(fiber));
		AtomicLong workerNanos = new AtomicLong();
		int[] most = {0};
		long[] last = {System.nanoTime()};
		Disposable sampler = Flux.interval(SAMPLE, Schedulers.single()).subscribe(tick -> {
			long now = System.nanoTime();
			int workers = pool.stats().workers();
			workerNanos.addAndGet(workers * (now - last[0]));
			last[0] = now;
			most[0] = Math.max(most[0], workers);
		});
		long start = System.nanoTime();
		try {
			Duration cheap = Duration.ofMillis(options.delayMillis());
			Duration dear = cheap.multipliedBy(options.dearer());
			Random random = new Random(17);
			double[] theta = new double[EvolutionStrategies.OPTIMUM.length];
			for (Duration cost : List.of(cheap, dear, cheap)) {
				theta = EvolutionStrategies.optimise(fiber, pool, theta, iterations, options.pairs(), cost, random, false);
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			sampler.dispose();
			Outcome outcome = new Outcome(name, seconds, workerNanos.get() / 1e9, most[0], pool.stats());
			System.err.printf(Locale.ROOT, "[es-autoscaling] %s: %.2f s, %.1f worker-seconds, at most %d workers, %d tasks (%d lost, %d retried)%n",
					name, outcome.seconds(), outcome.workerSeconds(), outcome.mostWorkers(), outcome.stats().completed(),
					outcome.stats().lost(), outcome.stats().retried());
			return outcome;
		}
		finally {
			sampler.dispose();
			pool.close();
		}
	}

	private static String markdown(Options options, List<List<Outcome>> rounds) {
		StringBuilder text = new StringBuilder("# Evolution strategies on an autoscaling pool, with evaluation cost that changes\n\n");
		text.append(String.format(Locale.ROOT, "%d iterations of %d antithetic pairs with evaluations of %d ms, then %d with "
				+ "evaluations %d× dearer, then %d cheap again; each evaluation waits (no computing). Worker-seconds: the workers "
				+ "taking tasks, sampled every %d ms, summed over the run. The autoscaling pool's queue time is %d ms, its idle "
				+ "time 2 s; every pool starts its own worker JVMs (worker-idle-time=0s).%n%n", options.iterations(), options.pairs(),
				options.delayMillis(), options.iterations(), options.dearer(), options.iterations(), SAMPLE.toMillis(),
				QUEUE_TIME.toMillis()));
		text.append("| run | pool | wall time | worker-seconds | most workers | time over fixed max | worker-seconds over fixed max |\n");
		text.append("|---|---|---|---|---|---|---|\n");
		for (int r = 0; r < rounds.size(); r++) {
			List<Outcome> round = rounds.get(r);
			Outcome fixedMax = round.get(round.size() - 1);
			for (Outcome outcome : round) {
				text.append(String.format(Locale.ROOT, "| %d | %s | %.2f s | %.1f | %d | %.2f× | %.2f× |%n", r + 1, outcome.pool(),
						outcome.seconds(), outcome.workerSeconds(), outcome.mostWorkers(), outcome.seconds() / fixedMax.seconds(),
						outcome.workerSeconds() / fixedMax.workerSeconds()));
			}
		}
		text.append(String.format(Locale.ROOT, "%njava -cp benchmarks/target/benchmarks.jar %s --runs %d --min %d --max %d "
				+ "--iterations %d --pairs %d --delay-ms %d --dearer %d%n", EsAutoscalingHarness.class.getName(), options.runs(),
				options.min(), options.max(), options.iterations(), options.pairs(), options.delayMillis(), options.dearer()));
		return text.toString();
	}
}
