package io.fiberjvm.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.test.StepVerifier;
import reactor.util.retry.Retry;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.TaskFailedException;
import io.fiberjvm.pool.WorkerLostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A pool task that returns a {@code Publisher} streams it back with the caller's backpressure, over real worker JVMs. */
@Timeout(300)
class PoolStreamTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(240);

	/** What a worker JVM made of its endless streams, and how many were cancelled; shared by the workers of one process. */
	static final class Made {
		static final AtomicLong COUNT = new AtomicLong();
		static final AtomicLong CANCELLED = new AtomicLong();

		private Made() {
		}

		/** An endless stream numbered from 0, counting each element as it is made, and its cancel. */
		static Flux<Long> endless(Object ignored) {
			return Flux.<Long, Long>generate(() -> 0L, (i, sink) -> {
				COUNT.incrementAndGet();
				sink.next(i);
				return i + 1;
			}).doOnCancel(CANCELLED::incrementAndGet);
		}

		static long count(Object ignored) {
			return COUNT.get();
		}

		/** Elements of 20 ms of work each, counted as they are made. */
		static Flux<Integer> slow(Object ignored) {
			return Flux.range(0, 1000).doOnNext(i -> {
				SimulatedWork.pause(20);
				COUNT.incrementAndGet();
			});
		}

		/** A publisher that loops inside its subscribe until cancelled, counting its rounds, and drops what nobody asked for. */
		static Flux<Long> looping(Object ignored) {
			return Flux.<Long>create(sink -> {
				while (!sink.isCancelled()) {
					sink.next(COUNT.incrementAndGet());
				}
				CANCELLED.incrementAndGet();
			}, FluxSink.OverflowStrategy.DROP);
		}

		static long cancelled(Object ignored) {
			return CANCELLED.get();
		}
	}

	@Test
	void elementsOfManyItemsArriveWholeEachInOrder() {
		FiberPool pool = fiber.pool(2).name("streams").open();
		Flux<Long> elements = pool.flatMap(n -> Flux.range(0, 100_000).map(i -> n * 1_000_000L + i), List.of(0L, 1L, 2L, 3L));
		Map<Long, List<Long>> byItem = new HashMap<>();
		StepVerifier.create(elements).thenConsumeWhile(x -> {
			byItem.computeIfAbsent(x / 1_000_000, k -> new ArrayList<>()).add(x % 1_000_000);
			return true;
		}).expectComplete().verify(LONG);
		assertThat(byItem).containsOnlyKeys(0L, 1L, 2L, 3L);
		List<Long> expected = LongStream.range(0, 100_000).boxed().toList();
		byItem.values().forEach(list -> assertThat(list).isEqualTo(expected));
	}

	@Test
	void oneWorkerStreamsItemsOneAfterAnotherInInputOrder() {
		FiberPool pool = fiber.pool(1).name("sequential").open();
		List<Integer> expected = new ArrayList<>();
		for (int n = 0; n < 5; n++) {
			for (int i = 0; i < 20_000; i++) {
				expected.add(n * 100_000 + i);
			}
		}
		StepVerifier.create(pool.flatMapSequential(n -> Flux.range(n * 100_000, 20_000), List.of(0, 1, 2, 3, 4)).collectList())
				.assertNext(list -> assertThat(list).isEqualTo(expected))
				.expectComplete()
				.verify(LONG);
	}

	@Test
	void aWorkerMakesOnlyWhatTheCallerAskedForAndStopsWhenItCancels() {
		// Two workers in one JVM: one streams, the other reads what the first has made.
		FiberPool pool = fiber.pool(2).name("backpressure").workersPerProcess(2).open();
		FiberFunction<Long, Publisher<Long>> endless = Made::endless;
		StepVerifier.create(pool.flatMap(endless, List.of(0L)), 10)
				.expectNext(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L)
				.then(() -> {
					// Each round trip gives an unpaced stream time to run far ahead.
					for (int i = 0; i < 20; i++) {
						long made = pool.apply(Made::count, 0).block(LONG);
						assertThat(made).as("elements made for 10 asked").isLessThanOrEqualTo(2_000);
					}
				})
				.thenCancel()
				.verify(LONG);
		// The cancel reached the publisher on the worker, and the worker answered the task.
		await().atMost(LONG).until(() -> pool.apply(Made::cancelled, 0).block(LONG) == 1);
		await().atMost(LONG).until(() -> pool.stats().inFlight() == 0);
	}

	@Test
	void aSlowStreamsFirstElementComesWithoutWaitingForItsBatch() {
		FiberPool pool = fiber.pool(2).name("slow").workersPerProcess(2).open();
		FiberFunction<Integer, Publisher<Integer>> slow = Made::slow;
		StepVerifier.create(pool.flatMap(slow, List.of(0)).take(1)).expectNext(0).expectComplete().verify(LONG);
		await().atMost(LONG).until(() -> pool.stats().inFlight() == 0);
		// A batch of what one demand asked for (256) would have been made whole before the first went up.
		assertThat(pool.apply(Made::count, 0).block(LONG)).as("elements made for the one taken").isLessThan(50);
	}

	@Test
	void aPublisherThatHoldsItsThreadStillHearsTheCancelAndTheWorkerGoesOn() {
		FiberPool pool = fiber.pool(2).name("looping").workersPerProcess(2).open();
		FiberFunction<Integer, Publisher<Long>> looping = Made::looping;
		StepVerifier.create(pool.flatMap(looping, List.of(0)))
				.expectSubscription()
				.then(() -> await().atMost(LONG).until(() -> pool.apply(Made::count, 0).block(LONG) > 1000))
				.thenCancel()
				.verify(LONG);
		await().atMost(LONG).until(() -> pool.apply(Made::cancelled, 0).block(LONG) == 1);
		await().atMost(LONG).until(() -> pool.stats().inFlight() == 0);
		FiberFunction<Integer, Publisher<Integer>> upTo = n -> Flux.range(0, n);
		StepVerifier.create(pool.flatMap(upTo, List.of(3, 3))).expectNextCount(6).expectComplete().verify(LONG);
	}

	@Test
	void anEarlierItemRetriedFindsAWorkerWhileLaterOnesWaitTheirTurn(@TempDir Path dir) {
		FiberPool pool = fiber.pool(2).name("sequential-retry").open().retry(Retry.max(3));
		String marker = dir.resolve("first-attempt").toString();
		FiberFunction<Integer, Publisher<Integer>> failFirst = n -> {
			if (n == 0) {
				failOnFirstAttempt(marker);
			}
			return Flux.range(n * 10_000, 1000);
		};
		List<Integer> expected = new ArrayList<>();
		for (int n = 0; n < 4; n++) {
			for (int i = 0; i < 1000; i++) {
				expected.add(n * 10_000 + i);
			}
		}
		StepVerifier.create(pool.flatMapSequential(failFirst, List.of(0, 1, 2, 3)).collectList())
				.assertNext(list -> assertThat(list).isEqualTo(expected))
				.expectComplete()
				.verify(LONG);
		assertThat(pool.stats().retried()).isEqualTo(1);
	}

	/** Throws the first time (the marker file does not exist yet), returns the next. */
	static void failOnFirstAttempt(String marker) {
		try {
			Files.createFile(Path.of(marker));
		}
		catch (java.nio.file.FileAlreadyExistsException again) {
			return;
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		throw new IllegalStateException("the first attempt fails");
	}

	@Test
	void aWorkerLostMidStreamFailsTheCallAfterItsElementsWithoutRepeatingThem() {
		FiberPool pool = fiber.pool(1).name("lost").open();
		FiberFunction<Long, Publisher<Long>> endless = Made::endless;
		List<Long> got = new CopyOnWriteArrayList<>();
		StepVerifier.create(pool.flatMap(endless, List.of(0L)).doOnNext(got::add), 100)
				.expectNextCount(100)
				.then(() -> kill(pool.workers().get(0)))
				.thenRequest(Long.MAX_VALUE)
				.thenConsumeWhile(x -> true)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(WorkerLostException.class)
						.hasMessageContaining("after its stream had delivered " + got.size() + " elements")
						.hasMessageContaining("not run again"))
				.verify(LONG);
		assertThat(got).isEqualTo(LongStream.range(0, got.size()).boxed().toList());
	}

	@Test
	void aStreamLostBeforeItsFirstElementRunsAgain(@TempDir Path dir) {
		FiberPool pool = fiber.pool(1).name("retried").open();
		String marker = dir.resolve("first-attempt").toString();
		StepVerifier.create(pool.flatMap(PoolStreamTest::dieOnFirstAttempt, List.of(marker)).collectList())
				.assertNext(list -> assertThat(list).isEqualTo(java.util.stream.IntStream.range(0, 1000).boxed().toList()))
				.expectComplete()
				.verify(LONG);
		assertThat(pool.stats().retried()).isEqualTo(1);
	}

	/** Halts its JVM the first time (the marker file does not exist yet), streams 0..999 the next. */
	static Publisher<Integer> dieOnFirstAttempt(String marker) {
		Path path = Path.of(marker);
		if (!Files.exists(path)) {
			try {
				Files.createFile(path);
			}
			catch (IOException e) {
				throw new UncheckedIOException(e);
			}
			Runtime.getRuntime().halt(3);
		}
		return Flux.range(0, 1000);
	}

	@Test
	void aFailingPublisherEndsTheCallAfterItsElementsAndIsNotRunAgain() {
		FiberPool pool = fiber.pool(1).name("failing").open().retry(Retry.max(3));
		FiberFunction<Integer, Publisher<Integer>> failing = n -> Flux.range(0, n)
				.concatWith(Flux.error(new IllegalStateException("the simulator diverged")));
		StepVerifier.create(pool.flatMap(failing, List.of(3)))
				.expectNext(0, 1, 2)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(TaskFailedException.class)
						.hasMessageContaining("the simulator diverged"))
				.verify(LONG);
		// A slow subscriber: the error waits behind the elements made before it, however many are buffered.
		StepVerifier.create(pool.flatMap(failing, List.of(300)), 10)
				.expectNextSequence(java.util.stream.IntStream.range(0, 10).boxed().toList())
				.thenRequest(Long.MAX_VALUE)
				.expectNextSequence(java.util.stream.IntStream.range(10, 300).boxed().toList())
				.expectError(TaskFailedException.class)
				.verify(LONG);
		assertThat(pool.stats().retried()).isZero();
	}

	@Test
	void aFunctionThatThrowsOrReturnsNoPublisherFailsItsCall() {
		FiberPool pool = fiber.pool(1).name("refused").open();
		FiberFunction<Integer, Publisher<Integer>> throwing = n -> {
			throw new IllegalArgumentException("no stream for " + n);
		};
		StepVerifier.create(pool.flatMap(throwing, List.of(7)))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(TaskFailedException.class)
						.hasMessageContaining("no stream for 7"))
				.verify(LONG);
		@SuppressWarnings({"unchecked", "rawtypes"})
		FiberFunction<Integer, Publisher<Integer>> notAStream = (FiberFunction) (FiberFunction<Integer, Object>) n -> "text";
		StepVerifier.create(pool.flatMap(notAStream, List.of(1)))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(TaskFailedException.class)
						.hasMessageContaining("must return a Publisher")
						.hasMessageContaining("java.lang.String"))
				.verify(LONG);
		FiberFunction<Integer, Publisher<Integer>> empty = n -> Flux.empty();
		StepVerifier.create(pool.flatMap(empty, List.of(1, 2))).expectComplete().verify(LONG);
	}

	@Test
	void anElementOtherProcessesWouldRefuseFailsOnTheWorkerNamingThePattern() {
		FiberPool pool = fiber.pool(1).name("refusing").open();
		FiberFunction<Integer, Publisher<Object>> uris = n -> Flux.just("fine", java.net.URI.create("http://example.org"));
		StepVerifier.create(pool.flatMap(uris, List.of(1)))
				.expectNext("fine")
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(TaskFailedException.class)
						.hasMessageContaining("java.net.URI")
						.hasMessageContaining("serial-allow"))
				.verify(LONG);
	}

	@Test
	void elementsLargerThanAFrameArriveWhole() {
		FiberPool pool = fiber.pool(1).name("large").open();
		// 32 MiB each, far over a frame: the transport fragments each one.
		FiberFunction<Integer, Publisher<double[]>> large = n -> Flux.range(0, n).map(i -> {
			double[] values = new double[4 << 20];
			Arrays.fill(values, i);
			return values;
		});
		List<Double> firstAndLast = new ArrayList<>();
		StepVerifier.create(pool.flatMap(large, List.of(3)))
				.thenConsumeWhile(values -> {
					assertThat(values).hasSize(4 << 20);
					firstAndLast.add(values[0]);
					firstAndLast.add(values[values.length - 1]);
					return true;
				})
				.expectComplete()
				.verify(LONG);
		assertThat(firstAndLast).containsExactly(0.0, 0.0, 1.0, 1.0, 2.0, 2.0);
	}

	private static void kill(FiberProcess worker) {
		long pid = worker.pid().orElseThrow();
		ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
	}
}
