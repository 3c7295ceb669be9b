package io.fiberjvm.examples.sgd;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.ring.ReduceOp;

/**
 * Data-parallel SGD of a linear regression on a {@link io.fiberjvm.ring.Ring}, with no ML library:
 * each member holds a shard of a generated data set, computes the gradient of the mean squared error
 * on it, and an all-reduce (mean) of the gradients gives every member the same update, so every
 * member's model is the same at every step. Run with
 * {@code mvn -q -B -DskipTests -pl fiber-examples -am package exec:exec -Dexample=io.fiberjvm.examples.sgd.DataParallelSgd}.
 */
public final class DataParallelSgd {

	/** The coefficients the data is generated from: three weights, then the bias. */
	public static final double[] TRUTH = {2.0, -3.0, 0.5, 1.0};

	private static final double LEARNING_RATE = 0.3;

	private DataParallelSgd() {
	}

	/**
	 * Trains on {@code members} members, {@code rows} rows each, for {@code steps} steps; every member
	 * reports each step to {@code reports}, which the caller reads meanwhile (a member waits while it is
	 * full). Completes when every member has finished.
	 */
	public static Mono<Void> train(Fiber fiber, int members, int rows, int steps, FiberQueue<StepReport> reports) {
		return fiber.ring(members).name("sgd").run(ring -> {
			Shard shard = Shard.generate(42, ring.rank(), rows, TRUTH);
			double[] model = new double[TRUTH.length];
			for (int step = 0; step < steps; step++) {
				double[] gradient = ring.allReduce(shard.gradient(model), ReduceOp.MEAN).block();
				for (int i = 0; i < model.length; i++) {
					model[i] -= LEARNING_RATE * gradient[i];
				}
				reports.put(new StepReport(step, ring.rank(), model.clone(), shard.loss(model))).block();
			}
		});
	}

	public static void main(String[] args) {
		int members = 4;
		int steps = 200;
		try (Fiber fiber = Fiber.open()) {
			FiberQueue<StepReport> reports = fiber.queue(StepReport.class, 4096);
			// Read while training, so the queue never fills up and holds the members back.
			var collected = reports.receive().take((long) members * steps).collectList().toFuture();
			long start = System.nanoTime();
			train(fiber, members, 5000, steps, reports).block(Duration.ofMinutes(5));
			List<StepReport> all = collected.join();
			StepReport last = all.stream().filter(r -> r.step() == steps - 1 && r.rank() == 0).findFirst().orElseThrow();
			System.out.printf(Locale.ROOT, "%d members, %d steps in %.1f s; loss %.6f%n", members, steps,
					(System.nanoTime() - start) / 1e9, last.loss());
			System.out.println("learned " + Arrays.toString(last.model()));
			System.out.println("truth   " + Arrays.toString(TRUTH));
		}
	}
}
