package io.fiberjvm.examples.es;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.stream.IntStream;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.Shared;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolBuilder;

/**
 * Evolution strategies (OpenAI-style: antithetic pairs, a shared noise table, centered-rank fitness
 * shaping) on a {@link FiberPool}, maximising Fiber's GECCO demo objective
 * {@code -Σ(θ - [5, -5, 1.5])²}. Each worker makes the noise table from the seed once. Each iteration shares
 * the parameters ({@link Fiber#share}), so they reach each worker JVM once however many tasks it runs; a task
 * carries their handle and a noise index and returns the fitness of {@code θ + σε} and {@code θ - σε}. Run with
 * {@code mvn -q -B -DskipTests -pl fiber-examples -am package exec:exec -Dexample=io.fiberjvm.examples.es.EvolutionStrategies}.
 */
public final class EvolutionStrategies {

	/** Where the objective is highest. */
	public static final double[] OPTIMUM = {5, -5, 1.5};

	private static final long NOISE_SEED = 7;
	private static final int NOISE_SIZE = 250_000;
	private static final double SIGMA = 0.5;
	private static final double LEARNING_RATE = 0.3;

	/** Small worker JVMs: forty of them fit on a laptop. */
	public static final String SMALL_WORKER_FLAGS = "-XX:+UseSerialGC -Xmx64m -Xss512k -XX:TieredStopAtLevel=1";

	private EvolutionStrategies() {
	}

	/** The demo objective: {@code -Σ(θ - OPTIMUM)²}, 0 at the optimum. */
	public static double objective(double[] theta) {
		double sum = 0;
		for (int i = 0; i < theta.length; i++) {
			double d = theta[i] - OPTIMUM[i];
			sum += d * d;
		}
		return -sum;
	}

	/** Fitness of the antithetic pair: {@code f(θ + σε)} and {@code f(θ - σε)}. */
	static double[] evaluate(Evaluation task) {
		double[] theta = task.theta().get();
		double[] epsilon = NoiseTable.of(NOISE_SEED, NOISE_SIZE).slice(task.noiseIndex(), theta.length);
		double[] plus = theta.clone();
		double[] minus = theta.clone();
		for (int i = 0; i < plus.length; i++) {
			plus[i] += SIGMA * epsilon[i];
			minus[i] -= SIGMA * epsilon[i];
		}
		return new double[] {objective(plus), objective(minus)};
	}

	/** {@link #evaluate}, each of the pair's two evaluations also taking {@code delayNanos}, as a simulator would. */
	static double[] evaluateSlowly(Evaluation task, long delayNanos) {
		long until = System.nanoTime() + 2 * delayNanos;
		double[] fitness = evaluate(task);
		for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
			java.util.concurrent.locks.LockSupport.parkNanos(left);
		}
		return fitness;
	}

	/**
	 * The pool ES runs on: {@code workers} workers, {@code workersPerProcess} of them in each worker JVM, every
	 * JVM making the noise table once before its first task.
	 */
	public static FiberPool pool(Fiber fiber, int workers, int workersPerProcess) {
		return pool(fiber.pool(workers).workersPerProcess(workersPerProcess));
	}

	/** The pool ES runs on, from {@code builder} (a fixed or an autoscaling pool): each worker JVM makes the noise table first. */
	public static FiberPool pool(PoolBuilder builder) {
		return builder.name("es").initializer(() -> NoiseTable.of(NOISE_SEED, NOISE_SIZE)).open();
	}

	/**
	 * Runs {@code iterations} iterations of {@code pairs} antithetic pairs on {@code workers} workers;
	 * returns the parameters, printing progress every 10 iterations when {@code verbose}.
	 */
	public static double[] optimise(Fiber fiber, int workers, int iterations, int pairs, boolean verbose) {
		FiberPool pool = pool(fiber, workers, 1);
		try {
			return optimise(fiber, pool, new double[OPTIMUM.length], iterations, pairs, Duration.ZERO, new Random(11), verbose);
		}
		finally {
			pool.close();
		}
	}

	/**
	 * Runs {@code iterations} iterations of {@code pairs} antithetic pairs (a population of {@code 2 × pairs})
	 * from {@code start} on {@code pool} of {@code fiber}, each evaluation also taking {@code evaluationDelay};
	 * returns the parameters, printing progress every 10 iterations when {@code verbose}.
	 */
	public static double[] optimise(Fiber fiber, FiberPool pool, double[] start, int iterations, int pairs, Duration evaluationDelay, Random random,
			boolean verbose) {
		long delay = evaluationDelay.toNanos();
		FiberFunction<Evaluation, double[]> evaluate = delay == 0 ? EvolutionStrategies::evaluate : task -> evaluateSlowly(task, delay);
		NoiseTable noise = NoiseTable.of(NOISE_SEED, NOISE_SIZE);
		double[] theta = start.clone();
		for (int iteration = 0; iteration < iterations; iteration++) {
			int[] indices = IntStream.range(0, pairs).map(i -> random.nextInt(NOISE_SIZE - start.length)).toArray();
			Shared<double[]> current = fiber.share(theta.clone());
			List<double[]> fitness;
			try {
				fitness = pool.map(evaluate, Flux.range(0, pairs).map(i -> new Evaluation(current, indices[i])))
						.collectList().block(Duration.ofMinutes(5));
			}
			finally {
				// Each worker drops this iteration's parameters; the next iteration shares new ones.
				current.release().block(Duration.ofMinutes(1));
			}
			double[] shaped = centeredRanks(fitness);
			double[] gradient = new double[theta.length];
			for (int p = 0; p < pairs; p++) {
				double weight = shaped[p] - shaped[pairs + p];
				double[] epsilon = noise.slice(indices[p], theta.length);
				for (int i = 0; i < theta.length; i++) {
					gradient[i] += weight * epsilon[i];
				}
			}
			for (int i = 0; i < theta.length; i++) {
				theta[i] += LEARNING_RATE * gradient[i] / (pairs * SIGMA);
			}
			if (verbose && iteration % 10 == 9) {
				System.out.printf(Locale.ROOT, "iteration %d: θ = %s, objective %.5f%n", iteration + 1, Arrays.toString(theta),
						objective(theta));
			}
		}
		return theta;
	}

	/** Every fitness (the plus halves, then the minus halves) replaced by its rank, scaled to [-0.5, 0.5]. */
	private static double[] centeredRanks(List<double[]> fitness) {
		int pairs = fitness.size();
		double[] all = new double[2 * pairs];
		for (int p = 0; p < pairs; p++) {
			all[p] = fitness.get(p)[0];
			all[pairs + p] = fitness.get(p)[1];
		}
		List<Integer> order = new ArrayList<>(IntStream.range(0, all.length).boxed().toList());
		order.sort(Comparator.comparingDouble(i -> all[i]));
		double[] ranks = new double[all.length];
		for (int rank = 0; rank < order.size(); rank++) {
			ranks[order.get(rank)] = (double) rank / (all.length - 1) - 0.5;
		}
		return ranks;
	}

	public static void main(String[] args) {
		int workers = args.length > 0 ? Integer.parseInt(args[0]) : 40;
		try (Fiber fiber = Fiber.builder().set("jvm-options", SMALL_WORKER_FLAGS).open()) {
			long start = System.nanoTime();
			double[] theta = optimise(fiber, workers, 50, 100, true);
			System.out.printf(Locale.ROOT, "%d workers, 50 iterations of 200 evaluations in %.1f s: θ = %s (optimum %s)%n", workers,
					(System.nanoTime() - start) / 1e9, Arrays.toString(theta), Arrays.toString(OPTIMUM));
		}
	}
}
