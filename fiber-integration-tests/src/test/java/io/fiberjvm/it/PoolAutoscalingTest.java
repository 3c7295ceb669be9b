package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolScaling;
import io.fiberjvm.pool.PoolStats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Autoscaling pools over real worker JVMs: up while tasks wait, down when workers idle, nothing lost or run twice. */
@Timeout(300)
class PoolAutoscalingTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofMinutes(2);

	/** Waits {@code millis}, then answers {@code x}. */
	static int slowly(int x, long millis) {
		SimulatedWork.pause(millis);
		return x;
	}

	private static void assertNothingLostOrRunTwice(PoolStats stats, long tasks) {
		assertThat(stats.submitted()).isEqualTo(tasks);
		assertThat(stats.completed()).isEqualTo(tasks);
		assertThat(stats.lost()).isZero();
		assertThat(stats.retried()).isZero();
		assertThat(stats.requeued()).isZero();
		assertThat(stats.failed()).isZero();
	}

	/** The most workers {@code pool} wanted, and the most it had taking tasks, while it is sampled. */
	private static final class Peaks implements AutoCloseable {

		final AtomicInteger target = new AtomicInteger();
		final AtomicInteger workers = new AtomicInteger();
		private final Disposable sampling;

		Peaks(FiberPool pool) {
			sampling = Flux.interval(Duration.ofMillis(20)).subscribe(tick -> {
				PoolStats stats = pool.stats();
				target.accumulateAndGet(stats.target(), Math::max);
				workers.accumulateAndGet(stats.workers(), Math::max);
			});
		}

		@Override
		public void close() {
			sampling.dispose();
		}
	}

	@Test
	void aPoolGrowsWhileTasksWaitAndShrinksBackToItsFewestWhenIdle() {
		FiberPool pool = fiber.pool(PoolScaling.between(1, 4).queueTime(Duration.ofMillis(200)).idleAfter(Duration.ofSeconds(3)))
				.name("elastic").chunkSize(1).open();
		assertThat(pool.size()).isEqualTo(1);
		List<Integer> inputs = IntStream.range(0, 60).boxed().toList();
		try (Peaks peaks = new Peaks(pool)) {
			// 15 s of tasks for one worker: they wait, and it grows, twice as large at each look, up to its most.
			assertThat(pool.map(x -> slowly(x, 250), inputs).collectList().block(LONG)).isEqualTo(inputs);
			assertThat(peaks.target.get()).isEqualTo(4);
			assertThat(peaks.workers.get()).isGreaterThan(1);
		}
		assertNothingLostOrRunTwice(pool.stats(), inputs.size());
		// Idle, it goes back to its fewest, and the retired workers' processes end.
		await().atMost(LONG).until(() -> pool.stats().target() == 1 && pool.workers().size() == 1);
		PoolStats stats = pool.stats();
		assertThat(stats.minWorkers()).isEqualTo(1);
		assertThat(stats.maxWorkers()).isEqualTo(4);
		assertThat(stats.workersLost()).isZero();
		assertThat(stats.queueWait()).isZero();
		// And grows again when work comes back.
		try (Peaks peaks = new Peaks(pool)) {
			assertThat(pool.map(x -> slowly(x, 250), inputs).collectList().block(LONG)).isEqualTo(inputs);
			assertThat(peaks.target.get()).isGreaterThan(1);
		}
		assertNothingLostOrRunTwice(pool.stats(), 2L * inputs.size());
		pool.close();
	}

	@Test
	void workersRetiredWhileOthersRunTasksLoseNothing() {
		FiberPool pool = fiber.pool(PoolScaling.between(1, 4).queueTime(Duration.ofMillis(100)).idleAfter(Duration.ofMillis(500)))
				.name("trickle").chunkSize(1).open();
		List<Integer> burst = IntStream.range(0, 40).boxed().toList();
		int grown;
		try (Peaks peaks = new Peaks(pool)) {
			assertThat(pool.map(x -> slowly(x, 200), burst).collectList().block(LONG)).isEqualTo(burst);
			grown = peaks.target.get();
		}
		assertThat(grown).isGreaterThan(1);
		// One long task at a time keeps one worker busy while the others idle out and retire around it: the pool is
		// smaller than it grew while the tasks still run, and none of them is lost.
		List<Integer> trickle = IntStream.range(100, 112).boxed().toList();
		AtomicInteger least = new AtomicInteger(Integer.MAX_VALUE);
		Disposable watching = Flux.interval(Duration.ofMillis(20)).subscribe(tick -> least.accumulateAndGet(pool.stats().target(), Math::min));
		List<Integer> done = Flux.fromIterable(trickle).concatMap(x -> pool.apply(y -> slowly(y, 600), x)).collectList().block(LONG);
		watching.dispose();
		assertThat(done).isEqualTo(trickle);
		assertThat(least.get()).as("the fewest workers wanted while the tasks ran").isBetween(1, grown - 1);
		await().atMost(LONG).until(() -> pool.stats().target() == 1);
		assertNothingLostOrRunTwice(pool.stats(), burst.size() + trickle.size());
		assertThat(pool.stats().workersLost()).isZero();
		pool.close();
	}

	@Test
	void aSteadyLightLoadAfterABurstShrinksThePoolWithoutThrashing() {
		FiberPool pool = fiber.pool(PoolScaling.between(1, 4).queueTime(Duration.ofSeconds(2)).idleAfter(Duration.ofSeconds(1)))
				.name("steady").chunkSize(1).open();
		List<Integer> burst = IntStream.range(0, 48).boxed().toList();
		assertThat(pool.map(x -> slowly(x, 250), burst).collectList().block(LONG)).isEqualTo(burst);
		assertThat(pool.stats().target()).isGreaterThan(1);
		long started = pool.stats().workersStarted();
		// A task every 100 ms that takes 30: the oldest worker takes them all (idle workers go first, in the order they
		// came), the others idle out and retire, and nothing waits long enough to start a worker again.
		List<Integer> steady = Flux.interval(Duration.ofMillis(100)).onBackpressureBuffer().take(50).map(Long::intValue)
				.concatMap(x -> pool.apply(y -> slowly(y, 30), x)).collectList().block(LONG);
		assertThat(steady).hasSize(50);
		await().atMost(LONG).until(() -> pool.stats().target() == 1);
		assertThat(pool.stats().workersStarted()).as("no worker started again after the burst").isEqualTo(started);
		assertNothingLostOrRunTwice(pool.stats(), burst.size() + steady.size());
		pool.close();
	}

	@Test
	void aPoolOfNoneClosedWithTasksQueuedStartsAWorkerForThemAndCloses() {
		FiberPool pool = fiber.pool(PoolScaling.between(0, 2).queueTime(Duration.ofMillis(50))).name("closing-empty").open();
		Flux<Integer> results = pool.map(x -> x + 1, List.of(1, 2, 3)).cache();
		results.subscribe();
		pool.dispose();
		assertThat(results.collectList().block(LONG)).containsExactly(2, 3, 4);
		assertThat(pool.onClose().block(LONG)).isNull();
	}

	@Test
	void aPoolOfNoneStartsAWorkerForItsFirstTaskAndRetiresItWhenIdle() {
		FiberPool pool = fiber.pool(PoolScaling.between(0, 2).queueTime(Duration.ofMillis(50)).idleAfter(Duration.ofSeconds(1)))
				.name("from-zero").open();
		assertThat(pool.size()).isZero();
		assertThat(pool.apply(x -> x * 2, 21).block(LONG)).isEqualTo(42);
		await().atMost(LONG).until(() -> pool.stats().target() == 0 && pool.workers().isEmpty());
		assertThat(pool.apply(x -> x + 1, 1).block(LONG)).isEqualTo(2);
		pool.close();
	}

	@Test
	void resizeStaysWithinTheBoundsAndStatusShowsThem() {
		FiberPool pool = fiber.pool(2, 5).name("bounded").open();
		pool.resize(3);
		assertThat(pool.size()).isEqualTo(3);
		assertThatThrownBy(() -> pool.resize(6)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("pool bounded scales between 2 and 5 workers; cannot resize it to 6");
		assertThatThrownBy(() -> pool.resize(1)).isInstanceOf(IllegalArgumentException.class);
		RunStatus.Pool status = fiber.status().pools().stream().filter(p -> p.name().equals("bounded")).findFirst().orElseThrow();
		assertThat(status.min()).isEqualTo(2);
		assertThat(status.max()).isEqualTo(5);
		assertThat(status.scales()).isTrue();
		assertThat(fiber.pool(2).name("fixed").open().stats().maxWorkers()).isEqualTo(2);
		assertThatThrownBy(() -> fiber.pool(3, 2)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("min 3, max 2");
	}
}
