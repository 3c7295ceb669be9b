package io.fiberjvm.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.pool.FiberPool;

/**
 * Elements a second streamed from another JVM, in one run: a pool task's {@code Publisher} through
 * {@code pool.flatMap}, a manager method's {@code Flux}, and, as the batch baseline, the same integers
 * returned whole in {@code int[]} arrays of 10,000 through {@code pool.map}.
 *
 * <p>The contract: {@code --elements} integers (2,000,000) per round on each path, {@code --warmups} rounds
 * (2), then the median of {@code --runs} (5).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.StreamThroughputHarness [--elements 2000000] [--runs 5] [--warmups 2]
 * </pre>
 */
public final class StreamThroughputHarness {

	private static final Duration LONG = Duration.ofMinutes(5);

	private StreamThroughputHarness() {
	}

	/** What the manager streams from. */
	public interface Numbers {
		Flux<Integer> upTo(int n);
	}

	/** The manager's object. */
	public static class Source {
		public Flux<Integer> upTo(int n) {
			return Flux.range(0, n);
		}
	}

	public static void main(String[] args) {
		int elements = HarnessArgs.intOption(args, "--elements", 2_000_000);
		int runs = HarnessArgs.intOption(args, "--runs", 5);
		int warmups = HarnessArgs.intOption(args, "--warmups", 2);
		try (Fiber fiber = Fiber.open(); FiberPool pool = fiber.pool(1).open()) {
			Numbers numbers = AsyncManager.on(fiber).register(Numbers.class, Source.class).name("numbers").start().block(LONG)
					.create(Numbers.class);
			FiberFunction<Integer, Publisher<Integer>> upTo = n -> Flux.range(0, n);
			FiberFunction<Integer, int[]> batch = from -> IntStream.range(from, from + 10_000).toArray();
			List<Integer> starts = IntStream.range(0, elements / 10_000).map(i -> i * 10_000).boxed().toList();

			double flatMap = rate(elements, runs, warmups, () -> count(pool.flatMap(upTo, List.of(elements))));
			double manager = rate(elements, runs, warmups, () -> count(numbers.upTo(elements)));
			double arrays = rate(elements, runs, warmups,
					() -> pool.map(batch, starts).map(array -> (long) array.length).reduce(0L, Long::sum).block(LONG));

			System.out.printf(Locale.ROOT, "| %,d integers from one JVM, median of %d | elements/s | ratio to flatMap |%n", elements, runs);
			System.out.printf(Locale.ROOT, "|---|---|---|%n");
			System.out.printf(Locale.ROOT, "| `pool.flatMap` (a task returning `Flux.range`) | %,.0f | 1.00 |%n", flatMap);
			System.out.printf(Locale.ROOT, "| manager method returning `Flux` | %,.0f | %.2f |%n", manager, manager / flatMap);
			System.out.printf(Locale.ROOT, "| `pool.map` returning `int[10000]` (whole arrays) | %,.0f | %.2f |%n", arrays, arrays / flatMap);
		}
	}

	private static long count(Flux<?> elements) {
		Long n = elements.count().block(LONG);
		return n == null ? 0 : n;
	}

	private static double rate(int elements, int runs, int warmups, Supplier<Long> round) {
		List<Double> rates = new ArrayList<>();
		for (int i = 0; i < warmups + runs; i++) {
			long start = System.nanoTime();
			long got = round.get();
			double seconds = (System.nanoTime() - start) / 1e9;
			if (got != elements) {
				throw new IllegalStateException(got + " elements arrived, not " + elements);
			}
			if (i >= warmups) {
				rates.add(elements / seconds);
			}
		}
		return Measures.median(rates);
	}
}
