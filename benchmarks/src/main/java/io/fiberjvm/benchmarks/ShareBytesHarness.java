package io.fiberjvm.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.Shared;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.transport.TransportStats;

/**
 * The bytes a program sends per iteration of an ES-like loop when every task carries the parameters, against
 * sharing them once per iteration ({@link Fiber#share}), in one run on one pool; counted by the program's
 * transport ({@link Fiber#transportStats()}, bytes of frames written to peers).
 *
 * <p>Each iteration makes new parameters, runs {@code --tasks} tasks that each read them, and waits for all
 * results; the shared side releases the parameters after each iteration. The report gives the mean bytes sent
 * per iteration over {@code --iterations} iterations after one warm-up iteration, for each side.
 *
 * <pre>
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.ShareBytesHarness [--params 1000000] [--workers 32]
 *     [--tasks 128] [--iterations 3]
 * </pre>
 */
public final class ShareBytesHarness {

	private static final Duration LONG = Duration.ofMinutes(10);

	private ShareBytesHarness() {
	}

	public static void main(String[] args) throws InterruptedException {
		int params = HarnessArgs.intOption(args, "--params", 1_000_000);
		int workers = HarnessArgs.intOption(args, "--workers", 32);
		int tasks = HarnessArgs.intOption(args, "--tasks", 128);
		int iterations = HarnessArgs.intOption(args, "--iterations", 3);
		try (Fiber fiber = Fiber.builder().set("jvm-options", "-XX:+UseSerialGC -Xmx256m -XX:TieredStopAtLevel=1").open();
				FiberPool pool = fiber.pool(workers).open()) {
			PoolOverheadHarness.awaitWorkers(pool, workers, LONG);
			FiberFunction<double[], Double> inTask = theta -> theta[theta.length - 1];
			FiberFunction<Shared<double[]>, Double> shared = theta -> theta.get()[theta.get().length - 1];
			double perTask = 0;
			double perShare = 0;
			for (int i = 0; i <= iterations; i++) {
				double[] theta = new double[params];
				Arrays.fill(theta, i);
				long before = fiber.transportStats().bytesSent();
				check(pool.map(inTask, Flux.range(0, tasks).map(n -> theta)).collectList().block(LONG), i, tasks);
				long afterTasks = fiber.transportStats().bytesSent();
				Shared<double[]> handle = fiber.share(theta);
				check(pool.map(shared, Flux.range(0, tasks).map(n -> handle)).collectList().block(LONG), i, tasks);
				int fetches = handle.fetches();
				handle.release().block(LONG);
				long afterShare = fiber.transportStats().bytesSent();
				System.err.printf(Locale.ROOT, "iteration %d: in every task %,d bytes, shared %,d bytes (%d fetches)%n", i,
						afterTasks - before, afterShare - afterTasks, fetches);
				if (i > 0) {
					perTask += (afterTasks - before) / (double) iterations;
					perShare += (afterShare - afterTasks) / (double) iterations;
				}
			}
			TransportStats stats = fiber.transportStats();
			double theta = params * 8.0;
			System.out.printf(Locale.ROOT, "| %,d parameters, %d worker JVMs, %d tasks per iteration | bytes sent per iteration | × |θ| |%n",
					params, pool.workers().size(), tasks);
			System.out.printf(Locale.ROOT, "|---|---|---|%n");
			System.out.printf(Locale.ROOT, "| θ in every task | %,.0f | %.1f |%n", perTask, perTask / theta);
			System.out.printf(Locale.ROOT, "| θ shared (`fiber.share`) | %,.0f | %.1f |%n", perShare, perShare / theta);
			System.err.println("transport: " + stats);
		}
	}

	private static void check(List<Double> results, int iteration, int tasks) {
		if (results == null || results.size() != tasks || results.stream().anyMatch(r -> r != iteration)) {
			throw new IllegalStateException("iteration " + iteration + " read the wrong parameters");
		}
	}
}
