package io.fiberjvm.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.queue.FiberQueue;

/**
 * How evenly a queue shares items among consumers in other JVMs that all keep taking them, and how fast, as Python
 * Fiber's own balance test does it: each consumer answers each item it takes with its number.
 *
 * <p>The contract: {@code --consumers} (4) child JVMs, {@code --rounds} (5) rounds of {@code --items} (2,400) items
 * after one untimed round; prints each round's shares, its largest distance from an even share in percent, and its
 * items a second, then the medians.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.QueueSharesHarness [--consumers 4] [--items 2400] [--rounds 5]
 * </pre>
 */
public final class QueueSharesHarness {

	private static final Duration LONG = Duration.ofMinutes(5);

	private QueueSharesHarness() {
	}

	public static void main(String[] args) {
		int consumers = HarnessArgs.intOption(args, "--consumers", 4);
		int items = HarnessArgs.intOption(args, "--items", 2400);
		int rounds = HarnessArgs.intOption(args, "--rounds", 5);
		try (Fiber fiber = Fiber.open()) {
			FiberQueue<String> work = fiber.queue(String.class, 4 * items);
			FiberQueue<Integer> done = fiber.queue(Integer.class, 4 * items);
			FiberQueue<Integer> ready = fiber.queue(Integer.class);
			for (int c = 0; c < consumers; c++) {
				int ident = c;
				fiber.process(() -> {
					ready.put(ident).block();
					work.receive().concatMap(item -> done.put(ident)).then().block();
				}).name("consumer-" + c).start().block(LONG);
			}
			ready.receive().take(consumers).then().block(LONG);
			double[] spread = new double[rounds];
			double[] rate = new double[rounds];
			for (int round = -1; round < rounds; round++) {
				int[] shares = new int[consumers];
				long start = System.nanoTime();
				var sent = work.send(Flux.range(0, items).map(i -> "work")).toFuture();
				done.receive().take(items).doOnNext(ident -> shares[ident]++).blockLast(LONG);
				sent.join();
				double seconds = (System.nanoTime() - start) / 1e9;
				if (round < 0) {
					continue;
				}
				double even = (double) items / consumers;
				spread[round] = Arrays.stream(shares).mapToDouble(n -> Math.abs(n - even) / even * 100).max().orElse(0);
				rate[round] = items / seconds;
				System.out.printf(Locale.ROOT, "round %d: shares %s, at most %.1f%% from even, %.0f items/s%n", round + 1,
						Arrays.toString(shares), spread[round], rate[round]);
			}
			work.close();
			System.out.printf(Locale.ROOT, "median: at most %.1f%% from even, %.0f items/s%n", median(spread), median(rate));
		}
	}

	private static double median(double[] values) {
		double[] sorted = values.clone();
		Arrays.sort(sorted);
		return sorted[sorted.length / 2];
	}
}
