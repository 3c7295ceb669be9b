package io.fiberjvm.it;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.Shared;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.ring.ReduceOp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One large {@code double[]} crosses real child JVMs whole in every primitive: pool argument and result, queue item
 * both ways, manager argument and result, ring broadcast, all-reduce and gather, shared value. A subclass picks the size
 * and the run's settings.
 */
abstract class WholeValueTransfers {

	static final Duration LONG = Duration.ofSeconds(240);

	/** The number of doubles in a value. */
	abstract int length();

	/** A run whose children can hold a value this large. */
	abstract Fiber open();

	/** A value of {@link #length()} doubles: {@code i + offset} at index {@code i}. */
	static double[] values(int length, double offset) {
		double[] values = new double[length];
		Arrays.setAll(values, i -> i + offset);
		return values;
	}

	/** What a receiver reports of an array: its length and three of its elements, which place every byte. */
	static String probe(double[] values) {
		return values.length + ":" + values[0] + ":" + values[values.length / 2] + ":" + values[values.length - 1];
	}

	/** What {@link #probe} reports of {@code values(length(), offset)}, worked out without making it. */
	String expected(double offset) {
		return expected(offset, 1);
	}

	/** What {@link #probe} reports of {@code values(length(), offset)} times {@code factor}, worked out without making it. */
	String expected(double offset, double factor) {
		int length = length();
		return length + ":" + (0 + offset) * factor + ":" + (length / 2 + offset) * factor + ":" + (length - 1 + offset) * factor;
	}

	/** The async face of {@link Store}. */
	public interface Weights {
		Mono<double[]> swap(double[] next);
	}

	/** Holds one array, hands back the one it held. */
	public static class Store {
		private double[] held = {};

		public double[] swap(double[] next) {
			double[] previous = held;
			held = next;
			return previous;
		}
	}

	@Test
	void aPoolArgumentAndResultTravelWhole() {
		int length = length();
		try (Fiber fiber = open(); FiberPool pool = fiber.pool(1).open()) {
			FiberFunction<double[], double[]> shift = values -> {
				for (int i = 0; i < values.length; i++) {
					values[i] += 1;
				}
				return values;
			};
			StepVerifier.create(pool.apply(shift, values(length, 0)).map(WholeValueTransfers::probe))
					.expectNext(expected(1)).expectComplete().verify(LONG);
		}
	}

	@Test
	void aQueueItemTravelsBothWays() {
		int length = length();
		try (Fiber fiber = open(); FiberPool pool = fiber.pool(1).open()) {
			FiberQueue<double[]> down = fiber.queue(double[].class, 1);
			FiberQueue<double[]> up = fiber.queue(double[].class, 1);
			FiberFunction<Integer, String> relay = n -> {
				String seen = probe(down.take().block(LONG));
				up.put(values(length, n)).block(LONG);
				return seen;
			};
			StepVerifier.create(down.put(values(length, 3))).expectComplete().verify(LONG);
			StepVerifier.create(pool.apply(relay, 5)).expectNext(expected(3)).expectComplete().verify(LONG);
			StepVerifier.create(up.take().map(WholeValueTransfers::probe)).expectNext(expected(5)).expectComplete().verify(LONG);
		}
	}

	@Test
	void aManagerArgumentAndResultTravelWhole() {
		try (Fiber fiber = open()) {
			AsyncManager manager = AsyncManager.on(fiber).register(Weights.class, Store.class).name("weights").start().block(LONG);
			Weights weights = manager.create(Weights.class);
			StepVerifier.create(weights.swap(values(length(), 7)).map(v -> v.length)).expectNext(0).expectComplete().verify(LONG);
			StepVerifier.create(weights.swap(new double[1]).map(WholeValueTransfers::probe)).expectNext(expected(7))
					.expectComplete().verify(LONG);
		}
	}

	@Test
	void aRingBroadcastAllReduceAndGatherCarryItWhole() {
		int length = length();
		try (Fiber fiber = open()) {
			FiberQueue<String> reports = fiber.queue(String.class);
			fiber.ring(2).name("big").run(ring -> {
				double[] value = ring.broadcast(ring.rank() == 0 ? values(length, 9) : null).block();
				reports.put(ring.rank() + " broadcast " + probe(value)).block();
				// Rank 1 doubles its copy: the sum, sent in chunks of half the array, is three times the value.
				if (ring.rank() == 1) {
					for (int i = 0; i < value.length; i++) {
						value[i] *= 2;
					}
				}
				reports.put(ring.rank() + " sum " + probe(ring.allReduce(value, ReduceOp.SUM).block())).block();
				List<double[]> gathered = ring.gather(ring.rank() == 1 ? value : null).block();
				if (ring.rank() == 0) {
					reports.put("0 gathered " + probe(gathered.get(1))).block();
				}
			}).block(LONG);
			List<String> lines = reports.receive().take(5).collectList().block(LONG);
			assertThat(lines).containsExactlyInAnyOrder("0 broadcast " + expected(9), "1 broadcast " + expected(9),
					"0 sum " + expected(9, 3), "1 sum " + expected(9, 3), "0 gathered " + expected(9, 2));
		}
	}

	@Test
	void aSharedValueReachesAWorkerWhole() {
		try (Fiber fiber = open(); FiberPool pool = fiber.pool(1).open()) {
			Shared<double[]> shared = fiber.share(values(length(), 11));
			FiberFunction<Integer, String> read = n -> probe(shared.get());
			StepVerifier.create(pool.apply(read, 1)).expectNext(expected(11)).expectComplete().verify(LONG);
		}
	}
}
