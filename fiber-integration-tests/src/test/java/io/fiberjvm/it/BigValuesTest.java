package io.fiberjvm.it;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.ring.ReduceOp;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Values far larger than a frame (100 MiB of doubles against the default 8 MiB frame) cross real child JVMs
 * whole, in every primitive ({@link WholeValueTransfers}); a consumer killed mid-item loses nothing, and
 * {@code max-value-size} is the only wall, checked at the sender's call.
 */
@Timeout(300)
class BigValuesTest extends WholeValueTransfers {

	@Override
	int length() {
		return 100 * 1024 * 1024 / 8;
	}

	@Override
	Fiber open() {
		// Children hold a value, its encoding and its frame at once.
		return Fiber.builder().set("jvm-options", "-Xmx1500m").open();
	}

	@Test
	void itemsOfAConsumerKilledWhileMultiFrameItemsArriveAreDeliveredAgain() {
		try (Fiber fiber = open()) {
			// 16 MiB items: each travels as many fragments, so a kill falls within one, or between items.
			FiberQueue<double[]> queue = fiber.queue(double[].class, 32);
			FiberQueue<Integer> processed = fiber.queue(Integer.class, 32);
			int items = 12;
			StepVerifier.create(queue.send(reactor.core.publisher.Flux.range(0, items).map(i -> {
				double[] item = new double[2 * 1024 * 1024];
				Arrays.fill(item, i);
				return item;
			}))).verifyComplete();
			io.fiberjvm.FiberProcess victim = fiber.process(() -> queue.receive(2)
					.doOnNext(item -> processed.put((int) item[item.length - 1]).block())
					.then().block()).name("victim").start().block(LONG);
			List<Integer> seen = new java.util.ArrayList<>(processed.receive().take(2).collectList().block(LONG));
			ProcessHandle.of(victim.pid().getAsLong()).ifPresent(ProcessHandle::destroyForcibly);
			StepVerifier.create(victim.onExit()).expectNextMatches(code -> code != 0).verifyComplete();

			java.util.Set<Integer> all = java.util.concurrent.ConcurrentHashMap.newKeySet();
			all.addAll(seen);
			queue.receive(2).doOnNext(item -> {
				assertThat(item).hasSize(2 * 1024 * 1024);
				all.add((int) item[0]);
			}).takeUntil(item -> all.size() == items).then().block(LONG);
			assertThat(all).containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.range(0, items).boxed().toList());
		}
	}

	@Test
	void managerArgumentsOfOneSizeEachArriveAsSentOneAfterAnotherAndAtOnce() {
		// 4 MiB: written into arrays the codec lends and takes back once each call is answered.
		int length = 4 * 1024 * 1024 / 8;
		try (Fiber fiber = open()) {
			AsyncManager manager = AsyncManager.on(fiber).register(Weights.class, Store.class).name("reused").start().block(LONG);
			Weights weights = manager.create(Weights.class);
			StepVerifier.create(weights.swap(values(length, 0)).map(v -> v.length)).expectNext(0).verifyComplete();
			for (int i = 1; i < 6; i++) {
				StepVerifier.create(weights.swap(values(length, i)).map(WholeValueTransfers::probe))
						.expectNext(probe(values(length, i - 1))).verifyComplete();
			}
			// At once: the calls run one by one on the object, each handing back the array the one before it left.
			List<String> handedBack = reactor.core.publisher.Flux.range(10, 6)
					.flatMap(i -> weights.swap(values(length, i)).map(WholeValueTransfers::probe))
					.collectList().block(LONG);
			String last = weights.swap(new double[0]).map(WholeValueTransfers::probe).block(LONG);
			List<String> all = new java.util.ArrayList<>(handedBack);
			all.add(last);
			assertThat(all).containsExactlyInAnyOrderElementsOf(java.util.stream.IntStream.of(5, 10, 11, 12, 13, 14, 15)
					.mapToObj(i -> probe(values(length, i))).toList());
		}
	}

	@Test
	void aValueOverMaxValueSizeIsRefusedAtTheSendersCallNamingTheKey() {
		try (Fiber fiber = Fiber.builder().set("max-value-size", "1Mi").open(); FiberPool pool = fiber.pool(1).open()) {
			double[] over = new double[200_000];
			FiberFunction<double[], Integer> length = values -> values.length;
			StepVerifier.create(pool.apply(length, over))
					.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class).hasMessageContaining("max-value-size"))
					.verify(LONG);
			FiberQueue<double[]> queue = fiber.queue(double[].class);
			StepVerifier.create(queue.put(over))
					.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class).hasMessageContaining("max-value-size"))
					.verify(LONG);
			StepVerifier.create(queue.size()).expectNext(0).verifyComplete();
			StepVerifier.create(pool.apply(length, new double[100_000])).expectNext(100_000).verifyComplete();

			// Each under the limit, but a function and its argument, or a call's arguments, travel together.
			double[] captured = new double[80_000];
			FiberFunction<double[], Integer> heavy = values -> values.length + captured.length;
			StepVerifier.create(pool.apply(heavy, new double[80_000]))
					.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
							.hasMessageContaining("its function").hasMessageContaining("max-value-size"))
					.verify(LONG);
			AsyncManager manager = AsyncManager.on(fiber).register(Weights.class, Store.class).name("two").start().block(LONG);
			Weights weights = manager.create(Weights.class);
			StepVerifier.create(weights.swap(new double[100_000])).expectNextMatches(v -> v.length == 0).verifyComplete();

			// An all-reduce array is a value too: refused on each member before anything is sent, and the ring goes on.
			FiberQueue<String> reports = fiber.queue(String.class);
			fiber.ring(2).name("over").run(ring -> {
				String refused = ring.allReduce(new double[200_000], ReduceOp.SUM).map(sum -> "sent").onErrorResume(
						e -> Mono.just(e.getClass().getSimpleName() + " " + e.getMessage().contains("max-value-size"))).block();
				reports.put(refused + " " + ring.allReduce(new double[] {ring.rank()}, ReduceOp.SUM).block()[0]).block();
			}).block(LONG);
			assertThat(reports.receive().take(2).collectList().block(LONG)).containsExactly("CodecException true 1.0",
					"CodecException true 1.0");
		}
	}

	/** The async face of {@link Pair}. */
	public interface Pairs {
		Mono<Integer> lengths(double[] left, double[] right);
	}

	/** Adds two arrays' lengths. */
	public static class Pair {
		public int lengths(double[] left, double[] right) {
			return left.length + right.length;
		}
	}

	@Test
	void aManagerCallWhoseArgumentsTogetherAreOverMaxValueSizeIsRefusedAndTheManagerGoesOn() {
		try (Fiber fiber = Fiber.builder().set("max-value-size", "1Mi").open()) {
			AsyncManager manager = AsyncManager.on(fiber).register(Pairs.class, Pair.class).name("pairs").start().block(LONG);
			Pairs pairs = manager.create(Pairs.class);
			StepVerifier.create(pairs.lengths(new double[80_000], new double[80_000]))
					.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
							.hasMessageContaining("the arguments of lengths").hasMessageContaining("max-value-size"))
					.verify(LONG);
			StepVerifier.create(pairs.lengths(new double[10], new double[20])).expectNext(30).verifyComplete();
		}
	}
}
