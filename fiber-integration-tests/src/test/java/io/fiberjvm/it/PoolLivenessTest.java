package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.util.retry.Retry;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolStats;
import io.fiberjvm.pool.TaskResult;
import io.fiberjvm.pool.WorkerLostException;
import io.fiberjvm.pool.WorkerStartException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pool under faults makes progress or fails, and charges a worker's death to the task that caused it: tasks
 * that kill their worker, workers that cannot start, workers killed as they start. Real worker JVMs.
 */
@Timeout(600)
class PoolLivenessTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(300);

	@BeforeAll
	static void timeouts() {
		StepVerifier.setDefaultTimeout(LONG);
	}

	/** Doubles {@code x}, except that a poison element ends its worker's JVM at once, as a crashing simulator would. */
	static int doubledUnlessPoison(int x, int every, int poison) {
		if (x % every == poison) {
			Runtime.getRuntime().halt(70);
		}
		SimulatedWork.pause(1);
		return 2 * x;
	}

	static boolean isJvm(ProcessHandle process) {
		return process.info().command().map(command -> command.endsWith("/java")).orElse(false);
	}

	@Test
	void aTaskThatKillsItsWorkerOnEveryAttemptFailsAloneNamingItsElementWhileItsNeighboursComplete() {
		FiberPool pool = fiber.pool(2).name("poison").open().retry(Retry.max(2));
		List<TaskResult<Integer>> out = pool.mapResults((FiberFunction<Integer, Integer>) x -> doubledUnlessPoison(x, 1000, 77),
				Flux.range(0, 200)).collectList().block(LONG);

		assertThat(out).hasSize(200);
		for (TaskResult<Integer> result : out) {
			if (result.index() == 77) {
				assertThat(result.error()).isInstanceOfSatisfying(WorkerLostException.class,
						lost -> assertThat(lost.task()).startsWith("element 77 of map"));
			}
			else {
				assertThat(result.isSuccess()).as("element %d", result.index()).isTrue();
				assertThat(result.value()).isEqualTo(2 * (int) result.index());
			}
		}
		PoolStats stats = pool.stats();
		assertThat(stats.lost()).as("attempts charged: the poison's three, and no other").isEqualTo(3);
		assertThat(stats.retried()).isEqualTo(2);
		// Its first death may have come among other tasks of its worker, none of them charged: they ran again alone.
		assertThat(stats.workersLost()).isBetween(3L, 4L);
	}

	@Test
	void whenOneTaskInTwentyKillsItsWorkerEveryOtherElementSucceeds() {
		oneInTwentyKillsItsWorker(240, LONG);
	}

	/**
	 * The full size: 10,000 tasks, 500 of which kill their worker on each of their two attempts, so 1,000 worker
	 * JVMs die and are replaced. On two cores that takes longer than CI allows, so it runs when asked:
	 * {@code -Dpoison-tasks=10000 -Dsurefire.fork-timeout=4000}.
	 */
	@Test
	@EnabledIfSystemProperty(named = "poison-tasks", matches = "[0-9]+")
	@Timeout(3600)
	void whenOneTaskInTwentyOfManyKillsItsWorkerEveryOtherElementSucceeds() {
		oneInTwentyKillsItsWorker(Integer.parseInt(System.getProperty("poison-tasks")), Duration.ofMinutes(55));
	}

	private void oneInTwentyKillsItsWorker(int tasks, Duration wait) {
		FiberPool pool = fiber.pool(4).name("five-percent").open().retry(Retry.max(1));
		List<TaskResult<Integer>> out = pool.mapResults((FiberFunction<Integer, Integer>) x -> doubledUnlessPoison(x, 20, 7),
				Flux.range(0, tasks)).collectList().block(wait);

		assertThat(out).hasSize(tasks);
		int poisoned = 0;
		for (TaskResult<Integer> result : out) {
			if (result.index() % 20 == 7) {
				poisoned++;
				assertThat(result.error()).isInstanceOfSatisfying(WorkerLostException.class,
						lost -> assertThat(lost.task()).startsWith("element " + result.index() + " of map"));
			}
			else {
				assertThat(result.isSuccess()).as("innocent element %d", result.index()).isTrue();
				assertThat(result.value()).isEqualTo(2 * (int) result.index());
			}
		}
		assertThat(poisoned).isEqualTo(tasks / 20);
		assertThat(pool.stats().lost()).as("two attempts at each poison element, none at an innocent one").isEqualTo(2L * poisoned);
	}

	@Test
	void aTaskThatMayNotRunTwiceIsTheOnlyOneToFailWhenItKillsItsWorker() {
		FiberPool pool = fiber.pool(2).name("once").open().idempotent(false);
		List<TaskResult<Integer>> out = pool.mapResults((FiberFunction<Integer, Integer>) x -> doubledUnlessPoison(x, 1000, 42),
				Flux.range(0, 100)).collectList().block(LONG);

		assertThat(out).filteredOn(result -> !result.isSuccess()).singleElement()
				.satisfies(result -> assertThat(result.error()).isInstanceOfSatisfying(WorkerLostException.class,
						lost -> assertThat(lost.task()).startsWith("element 42 of map")));
		assertThat(pool.stats().lost()).isEqualTo(1);
		assertThat(pool.stats().retried()).isZero();
	}

	@Test
	void aPoolWhoseInitializerThrowsFailsItsCallsWithTheErrorAndTheWorkersLastOutput() {
		FiberPool pool = fiber.pool(2).name("no-simulator").restartBackoff(Duration.ofMillis(100), Duration.ofMillis(200))
				.initializer(() -> {
					System.out.println("loading the simulator's assets");
					throw new IllegalStateException("no simulator on this machine");
				}).open();
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x, 1))
				.expectErrorSatisfies(e -> {
					assertThat(e).isInstanceOf(WorkerStartException.class).hasMessageContaining("no simulator on this machine")
							.hasMessageContaining("fiber.worker-start-failures");
					assertThat(((WorkerStartException) e).failures()).isEqualTo(3);
					assertThat(e.getCause()).isInstanceOf(ProcessFailedException.class)
							.hasMessageContaining("loading the simulator's assets");
				})
				.verify(LONG);
		StepVerifier.create(pool.map((FiberFunction<Integer, Integer>) x -> x, Flux.range(0, 5)))
				.as("a new call fails at once, not retried")
				.expectError(WorkerStartException.class)
				.verify(Duration.ofSeconds(30));
		assertThat(pool.stats().queued()).isZero();
		assertThat(pool.stats().retried()).isZero();
		pool.terminate();
	}

	@Test
	void aPoolWhoseWorkersJvmCannotStartFailsItsCallsWithWhatTheJvmSaid() {
		Fiber misconfigured = Fiber.builder().set("jvm-options", "-XX:+NoSuchOptionAnywhere").set("worker-start-failures", "2").open();
		try {
			FiberPool pool = misconfigured.pool(1).name("bad-options").restartBackoff(Duration.ofMillis(100), Duration.ofMillis(100)).open();
			StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x, 1))
					.expectErrorSatisfies(e -> {
						assertThat(e).isInstanceOf(WorkerStartException.class);
						assertThat(((WorkerStartException) e).failures()).isEqualTo(2);
						assertThat(e.getCause()).isInstanceOf(ProcessFailedException.class)
								.hasMessageContaining("NoSuchOptionAnywhere");
					})
					.verify(LONG);
		}
		finally {
			misconfigured.close();
		}
	}

	@Test
	void workersKilledAsTheyStartForAMinuteNeitherFailNorStallAMapWhichCompletesOnceTheKillsStop() throws Exception {
		// Should a worker connect between kills on a fast machine, a kill charges the task it holds: retry as long as needed.
		FiberPool pool = fiber.pool(2).name("hunted").open().retry(Retry.indefinitely().filter(WorkerLostException.class::isInstance));
		CompletableFuture<List<Integer>> running = pool.map((FiberFunction<Integer, Integer>) x -> {
			SimulatedWork.pause(1);
			return 2 * x;
		}, Flux.range(0, 2000)).collectList().toFuture();
		AtomicInteger kills = new AtomicInteger();
		// Every child JVM of this test, starting or working, killed every 300 ms: no worker lives long enough to connect.
		// Only JVMs: the test JVM's other children (the test cluster's etcd and API server) are not Fiber's.
		Disposable killer = Flux.interval(Duration.ofMillis(300), Schedulers.boundedElastic())
				.subscribe(tick -> ProcessHandle.current().children().filter(PoolLivenessTest::isJvm).forEach(child -> {
					if (child.destroyForcibly()) {
						kills.incrementAndGet();
					}
				}));
		try {
			// Killed starts are no reason to fail the call.
			await().during(Duration.ofSeconds(60)).atMost(Duration.ofSeconds(90)).until(() -> !running.isCompletedExceptionally());
		}
		finally {
			killer.dispose();
		}
		assertThat(kills.get()).isGreaterThan(20);
		assertThat(pool.stats().workersLost()).isGreaterThan(20);
		assertThat(running.get(LONG.toSeconds(), TimeUnit.SECONDS)).hasSize(2000).startsWith(0, 2, 4);
	}
}
