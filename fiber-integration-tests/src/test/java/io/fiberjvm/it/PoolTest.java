package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;
import reactor.util.function.Tuple2;
import reactor.util.function.Tuples;
import reactor.util.retry.Retry;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberException;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.TaskFailedException;
import io.fiberjvm.pool.TaskResult;
import io.fiberjvm.progress.Progress;
import io.fiberjvm.progress.ProgressSnapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Python Fiber's pool checklist, on one pool of real worker JVMs. */
class PoolTest {

	private static final Duration LONG = Duration.ofSeconds(120);

	private static Fiber fiber;
	private static FiberPool pool;

	@BeforeAll
	static void open() {
		StepVerifier.setDefaultTimeout(LONG);
		fiber = Fiber.open();
		pool = fiber.pool(3).name("checklist").open();
	}

	@AfterAll
	static void close() {
		fiber.close();
	}

	/** Fails when {@code x} is a multiple of 20 and was picked, so errors land in known places. */
	static int failSome(int x, Set<Integer> failing) {
		if (failing.contains(x)) {
			throw new IllegalArgumentException("no " + x);
		}
		return x * 10;
	}

	@Test
	void mapsThreeItems() {
		StepVerifier.create(pool.map((FiberFunction<Integer, Integer>) x -> x * x, List.of(1, 2, 3)))
				.expectNext(1, 4, 9)
				.verifyComplete();
	}

	@Test
	void aLongMapReportsItsProgressAndReachesAllDoneExactlyOnce() {
		List<Integer> in = IntStream.range(0, 600).boxed().toList();
		Progress progress = Progress.expecting(in.size(), Duration.ofMillis(50));
		List<ProgressSnapshot> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
		progress.snapshots().subscribe(seen::add);
		List<Integer> out = pool.map((FiberFunction<Integer, Integer>) x -> {
			SimulatedWork.pause(10);
			return x;
		}, in).transform(progress::count).collectList().block(LONG);

		assertThat(out).containsExactlyElementsOf(in);
		await().atMost(LONG).until(() -> !seen.isEmpty() && seen.get(seen.size() - 1).finished());
		assertThat(seen).filteredOn(s -> s.done() == s.total()).hasSize(1);
		ProgressSnapshot last = seen.get(seen.size() - 1);
		assertThat(last.done()).isEqualTo(600);
		assertThat(last.fraction()).isEqualTo(1.0);
		assertThat(seen).filteredOn(ProgressSnapshot::finished).containsExactly(last);
		assertThat(seen).extracting(ProgressSnapshot::done).isSorted();
		// 600 tasks of 10 ms on 3 workers take some forty 50 ms intervals, even with a result held back in order by a
		// worker that fell behind: the map was seen under way.
		assertThat(seen).anyMatch(s -> s.done() > 0 && s.done() < 600 && s.eta().isPresent());
	}

	@Test
	void mapsAThousandItemsInOrder() {
		List<Integer> in = IntStream.range(0, 1000).boxed().toList();
		List<Integer> out = pool.map((FiberFunction<Integer, Integer>) x -> x + 1, in).collectList().block(LONG);
		assertThat(out).containsExactlyElementsOf(IntStream.range(1, 1001).boxed().toList());
	}

	@Test
	void appliesAFunctionToItsArgument() {
		StepVerifier.create(pool.apply((FiberFunction<String, String>) s -> s.toUpperCase() + "!", "fiber"))
				.expectNext("FIBER!")
				.verifyComplete();
		StepVerifier.create(pool.apply((FiberFunction<List<Integer>, Integer>) l -> l.stream().mapToInt(i -> i).sum(), List.of(1, 2, 3)))
				.expectNext(6)
				.verifyComplete();
	}

	@Test
	void orderedResultsKeepInputOrderAndUnorderedOnesComeAsTheyFinish() {
		// Early items sleep longest, so they finish last.
		FiberFunction<Integer, Integer> slowFirst = x -> {
			SimulatedWork.pause(5L * (6 - x));
			return x;
		};
		StepVerifier.create(pool.map(slowFirst, List.of(0, 1, 2, 3, 4, 5))).expectNext(0, 1, 2, 3, 4, 5).verifyComplete();
		List<Integer> unordered = pool.mapUnordered(slowFirst, List.of(0, 1, 2, 3, 4, 5)).collectList().block(LONG);
		assertThat(unordered).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5);
	}

	@Test
	void starmapWithChunksOfOneAndOfTen() {
		List<Tuple2<Integer, Integer>> pairs = IntStream.range(0, 100).mapToObj(i -> Tuples.of(i, i * 2)).toList();
		List<Integer> expected = IntStream.range(0, 100).map(i -> i * 3).boxed().toList();
		for (int chunk : new int[] {1, 10}) {
			List<Integer> out = pool.chunkSize(chunk).starmap((a, b) -> (Integer) a + (Integer) b, pairs).collectList().block(LONG);
			assertThat(out).as("chunks of %d", chunk).containsExactlyElementsOf(expected);
		}
	}

	@Test
	void fiveThousandOneMillisecondApplies() {
		FiberFunction<Integer, Integer> oneMs = sleeping(1);
		List<Integer> out = Flux.range(0, 5000).flatMap(i -> pool.apply(oneMs, i), 5000).collectList().block(LONG);
		assertThat(out).hasSize(5000).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 5000).boxed().toList());
	}

	@Test
	void threeHundredItemsWithRandomErrorsComeBackInOrderWithTheirErrors() {
		Random random = new Random(42);
		Set<Integer> failing = new java.util.HashSet<>();
		IntStream.range(0, 300).filter(i -> random.nextDouble() < 0.05).forEach(failing::add);
		assertThat(failing).isNotEmpty();
		HashSetHolder holder = new HashSetHolder(failing);
		List<TaskResult<Integer>> results = pool.mapResults((FiberFunction<Integer, Integer>) x -> failSome(x, holder.values),
				Flux.range(0, 300)).collectList().block(LONG);
		assertThat(results).hasSize(300);
		for (int i = 0; i < 300; i++) {
			TaskResult<Integer> r = results.get(i);
			assertThat(r.index()).isEqualTo(i);
			if (failing.contains(i)) {
				assertThat(r.isSuccess()).isFalse();
				assertThat(r.error()).isInstanceOf(TaskFailedException.class).hasMessageContaining("element " + i + " of map");
				RemoteException remote = ((TaskFailedException) r.error()).remote();
				assertThat(remote.remoteType()).isEqualTo(IllegalArgumentException.class.getName());
				assertThat(remote.remoteMessage()).isEqualTo("no " + i);
				assertThat(remote.getStackTrace()).anySatisfy(frame -> assertThat(frame.getMethodName()).isEqualTo("failSome"));
			}
			else {
				assertThat(r.value()).isEqualTo(i * 10);
			}
		}
		// map fails at the first failing element, after every earlier result.
		int first = failing.stream().mapToInt(i -> i).min().orElseThrow();
		StepVerifier.create(pool.map((FiberFunction<Integer, Integer>) x -> failSome(x, holder.values), Flux.range(0, 300)))
				.expectNextCount(first)
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TaskFailedException.class).hasMessageContaining("no " + first))
				.verify(LONG);
	}

	/** A serializable holder for the failing set, captured by the shipped lambda. */
	record HashSetHolder(java.util.HashSet<Integer> values) implements java.io.Serializable {
		HashSetHolder(Set<Integer> values) {
			this(new java.util.HashSet<>(values));
		}
	}

	@Test
	void aMappedElementThatKeepsFailingIsRetriedAsTheViewSaysAndEndsWithItsLastError() {
		long retried = pool.stats().retried();
		HashSetHolder holder = new HashSetHolder(Set.of(3));
		List<TaskResult<Integer>> results = pool.retry(Retry.max(2))
				.mapResults((FiberFunction<Integer, Integer>) x -> failSome(x, holder.values), Flux.range(0, 6))
				.collectList().block(LONG);
		assertThat(results).extracting(TaskResult::index).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
		assertThat(results).filteredOn(TaskResult::isSuccess).extracting(TaskResult::value).containsExactly(0, 10, 20, 40, 50);
		assertThat(results.get(3).error()).isInstanceOf(TaskFailedException.class).hasMessageContaining("element 3 of map")
				.hasMessageContaining("no 3");
		assertThat(pool.stats().retried() - retried).isEqualTo(2);
	}

	@Test
	void aThrowingTaskLeavesItsWorkerRunningAndIsNotRetried() {
		List<Long> before = pool.workers().stream().map(p -> p.pid().orElse(-1)).sorted().toList();
		long retried = pool.stats().retried();
		FiberFunction<Integer, Integer> boom = x -> {
			throw new IllegalStateException("boom " + x);
		};
		StepVerifier.create(pool.apply(boom, 7))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TaskFailedException.class).hasMessageContaining("boom 7"))
				.verify(LONG);
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x + 1, 1)).expectNext(2).verifyComplete();
		assertThat(pool.workers().stream().map(p -> p.pid().orElse(-1)).sorted().toList()).isEqualTo(before);
		assertThat(pool.stats().retried()).isEqualTo(retried);
	}

	static int recurse(int depth) {
		return depth == Integer.MAX_VALUE ? depth : recurse(depth + 1) + 1;
	}

	@Test
	void aStackOverflowIsTheTasksErrorAndTheWorkerGoesOn() {
		List<Long> before = pool.workers().stream().map(p -> p.pid().orElse(-1)).sorted().toList();
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) PoolTest::recurse, 0))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TaskFailedException.class)
						.hasMessageContaining(StackOverflowError.class.getName()))
				.verify(LONG);
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x, 3)).expectNext(3).verifyComplete();
		assertThat(pool.workers().stream().map(p -> p.pid().orElse(-1)).sorted().toList()).isEqualTo(before);
	}

	@Test
	void aFunctionCapturingMoreThanAFrameRuns() {
		byte[] table = new byte[12 * 1024 * 1024];
		table[table.length - 1] = 5;
		StepVerifier.create(pool.map((FiberFunction<Integer, Integer>) x -> x + table[table.length - 1], List.of(1, 2)))
				.expectNext(6, 7).verifyComplete();
	}

	@Test
	void nullResultsAreEmptyForApplyAndAClearErrorForMap() {
		FiberFunction<Integer, Integer> nothing = x -> null;
		StepVerifier.create(pool.apply(nothing, 1)).verifyComplete();
		StepVerifier.create(pool.map(nothing, List.of(1)))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(FiberException.class).hasMessageContaining("returned null"))
				.verify(LONG);
	}

	@Test
	void anArgumentThatCannotTravelFailsItsElementClearly() {
		Object notSerializable = new Object();
		StepVerifier.create(pool.apply((FiberFunction<Object, String>) String::valueOf, notSerializable))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class)
						.hasMessageContaining("argument").hasMessageContaining("java.lang.Object").hasMessageContaining("not Serializable"))
				.verify(LONG);
	}

	@Test
	void aFunctionCapturingSomethingUnserializableFailsTheCall() {
		Thread captured = Thread.currentThread();
		StepVerifier.create(pool.map((FiberFunction<Integer, String>) x -> captured.getName() + x, List.of(1)))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class).hasMessageContaining("Thread"))
				.verify(LONG);
	}

	@Test
	void aResultOfAClassOutsideTheAllowListIsRefusedClearly() {
		// The result's own class is admitted, but java.net inside it is in no allow-list pattern: the worker
		// refuses to send it, the task fails saying which class and what to add, and the worker goes on.
		FiberFunction<String, Object> uri = s -> new Link(java.net.URI.create(s));
		StepVerifier.create(pool.apply(uri, "http://example.org"))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TaskFailedException.class).hasMessageContaining("java.net.URI")
						.hasMessageContaining("add java.net.* to serial-allow"))
				.verify(LONG);
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x, 4)).expectNext(4).verifyComplete();
	}

	/** A result holding a class from a package no allow-list admits. */
	record Link(java.net.URI target) implements java.io.Serializable {
	}

	@Test
	void cancellingTheSubscriberStopsDispatch() {
		FiberFunction<Integer, Integer> tenMs = sleeping(10);
		long before = pool.stats().completed();
		StepVerifier.create(pool.map(tenMs, Flux.range(0, 2000)).take(5)).expectNextCount(5).verifyComplete();
		await().atMost(LONG).until(pool::stats, stats -> stats.queued() == 0 && stats.inFlight() == 0);
		assertThat(pool.stats().completed() - before).isLessThan(1000);
	}

	@Test
	void aPipelineStage() {
		StepVerifier.create(Flux.range(0, 50).transform(pool.mapper((FiberFunction<Integer, Integer>) x -> -x)))
				.expectNextSequence(IntStream.range(0, 50).map(x -> -x).boxed().toList())
				.verifyComplete();
	}

	/** A shipped function that sleeps {@code ms}, then returns its argument. */
	static FiberFunction<Integer, Integer> sleeping(long ms) {
		return x -> {
			SimulatedWork.pause(ms);
			return x;
		};
	}
}
