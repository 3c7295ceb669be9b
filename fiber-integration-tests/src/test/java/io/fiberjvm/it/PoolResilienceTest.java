package io.fiberjvm.it;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.util.retry.Retry;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.TaskResult;
import io.fiberjvm.pool.WorkerLostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Pools whose workers die, resize, close and terminate: real worker JVMs, real SIGKILL. */
class PoolResilienceTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(180);

	@BeforeAll
	static void timeouts() {
		StepVerifier.setDefaultTimeout(LONG);
	}

	/** A task of about 0.2 ms: 20,000 of them keep 4 workers busy for a second, long enough for several kills. */
	static int fifthOfAMillisecond(int x) {
		java.util.concurrent.locks.LockSupport.parkNanos(200_000);
		return x * 2;
	}

	/**
	 * SIGKILLs a random working worker every 300 ms until disposed, while at least two are working;
	 * counts the kills. On 2 cores a replacement JVM needs well over 300 ms of CPU to start, so
	 * killing every worker as it comes up would stop all progress, which tests nothing.
	 */
	private Disposable killEvery300ms(FiberPool pool, AtomicInteger kills) {
		Random random = new Random(7);
		return Flux.interval(Duration.ofMillis(300), Schedulers.boundedElastic()).subscribe(tick -> {
			List<FiberProcess> live = pool.workers();
			if (live.size() >= 2) {
				FiberProcess victim = live.get(random.nextInt(live.size()));
				victim.pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(handle -> {
					if (handle.destroyForcibly()) {
						kills.incrementAndGet();
					}
				}));
			}
		});
	}

	private static void awaitWorkers(FiberPool pool, int n) {
		await().atMost(LONG).until(() -> pool.stats().workers() == n);
	}

	@Test
	void idempotentTasksSurviveAWorkerKilledEvery300ms() {
		FiberPool pool = fiber.pool(4).name("chaos").open()
				.retry(Retry.max(50).filter(WorkerLostException.class::isInstance));
		awaitWorkers(pool, 4);
		AtomicInteger kills = new AtomicInteger();
		Disposable killer = killEvery300ms(pool, kills);
		List<Integer> out;
		try {
			out = pool.map((FiberFunction<Integer, Integer>) PoolResilienceTest::fifthOfAMillisecond, Flux.range(0, 20_000))
					.collectList().block(LONG);
		}
		finally {
			killer.dispose();
		}
		assertThat(out).containsExactlyElementsOf(IntStream.range(0, 20_000).map(x -> x * 2).boxed().toList());
		assertThat(kills.get()).as("workers killed").isGreaterThanOrEqualTo(2);
		assertThat(pool.stats().lost() + pool.stats().requeued()).as("tasks killed workers held: charged, or queued again").isPositive();
		assertThat(pool.stats().retried()).as("attempts retried").isEqualTo(pool.stats().lost());
		assertThat(pool.stats().workersLost()).isGreaterThanOrEqualTo(1);
	}

	@Test
	void tasksOfAFunctionThatIsNotIdempotentFailWithWorkerLostAndTheRestSucceed() {
		FiberPool pool = fiber.pool(4).name("chaos-once").open().idempotent(false);
		awaitWorkers(pool, 4);
		AtomicInteger kills = new AtomicInteger();
		Disposable killer = killEvery300ms(pool, kills);
		List<TaskResult<Integer>> out;
		try {
			out = pool.mapResults((FiberFunction<Integer, Integer>) PoolResilienceTest::fifthOfAMillisecond, Flux.range(0, 20_000))
					.collectList().block(LONG);
		}
		finally {
			killer.dispose();
		}
		assertThat(out).hasSize(20_000);
		long failed = 0;
		for (int i = 0; i < out.size(); i++) {
			TaskResult<Integer> r = out.get(i);
			assertThat(r.index()).isEqualTo(i);
			if (r.isSuccess()) {
				assertThat(r.value()).isEqualTo(i * 2);
			}
			else {
				failed++;
				assertThat(r.error()).isInstanceOf(WorkerLostException.class);
				WorkerLostException lost = (WorkerLostException) r.error();
				assertThat(lost.task()).startsWith("element " + i + " of map");
				assertThat(lost.worker()).startsWith("chaos-once-w");
			}
		}
		assertThat(kills.get()).isGreaterThanOrEqualTo(2);
		assertThat(failed).as("tasks lost").isPositive().isEqualTo(pool.stats().lost());
		assertThat(pool.stats().retried()).isZero();
	}

	@Test
	void aWorkerThatStopsAnsweringKeepAlivesIsReplacedAndItsTaskRetried() throws Exception {
		Fiber quick = Fiber.builder().set("keepalive-interval", "500ms").set("keepalive-timeout", "2s").open();
		try {
			FiberPool pool = quick.pool(1).name("frozen").open();
			awaitWorkers(pool, 1);
			FiberProcess first = pool.workers().get(0);
			Mono<Integer> slow = pool.apply((FiberFunction<Integer, Integer>) x -> {
				SimulatedWork.pause(1500);
				return x + 1;
			}, 41);
			var result = slow.toFuture();
			await().atMost(LONG).until(() -> pool.stats().inFlight() == 1);
			long pid = first.pid().orElseThrow();
			signal("STOP", pid);
			try {
				assertThat(result.get(LONG.toSeconds(), TimeUnit.SECONDS)).isEqualTo(42);
				assertThat(pool.stats().lost()).isEqualTo(1);
				assertThat(pool.workers()).noneMatch(p -> p.pid().orElse(-1) == pid);
			}
			finally {
				signal("KILL", pid);
			}
		}
		finally {
			quick.close();
		}
	}

	private static void signal(String name, long pid) {
		try {
			new ProcessBuilder("kill", "-" + name, Long.toString(pid)).inheritIO().start().waitFor();
		}
		catch (Exception e) {
			throw new IllegalStateException(e);
		}
	}

	@Test
	void aCrashingInitializerIsRetriedWithBackoffNotInALoop() {
		FiberPool pool = fiber.pool(2).name("broken").restartBackoff(Duration.ofSeconds(30), Duration.ofSeconds(30))
				.initializer(() -> {
					throw new IllegalStateException("cannot initialize");
				}).open();
		await().atMost(LONG).until(() -> pool.stats().workersLost() == 2);
		// Both first workers failed; the next start waits 30 s, so none starts meanwhile.
		await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> pool.stats().workersStarted() == 2);
		pool.terminate();
	}

	@Test
	void theInitializerRunsInEveryWorkerBeforeItsTasks() {
		FiberPool pool = fiber.pool(2).name("init").initializer(() -> System.setProperty("pool.ready", "yes")).open();
		List<String> seen = pool.map((FiberFunction<Integer, String>) x -> System.getProperty("pool.ready", "no"),
				Flux.range(0, 40)).collectList().block(LONG);
		assertThat(seen).hasSize(40).containsOnly("yes");
	}

	@Test
	void resizeWhileRunning() throws Exception {
		FiberPool pool = fiber.pool(1).name("elastic").open();
		FiberFunction<Integer, Long> whoRuns = x -> {
			SimulatedWork.pause(5);
			return ProcessHandle.current().pid();
		};
		// Ten seconds of work for one worker: the two added workers (about two seconds to start) take part.
		var running = pool.map(whoRuns, Flux.range(0, 2000)).collectList().toFuture();
		awaitWorkers(pool, 1);
		pool.resize(3);
		assertThat(pool.size()).isEqualTo(3);
		List<Long> pids = running.get(LONG.toSeconds(), TimeUnit.SECONDS);
		assertThat(pids).hasSize(2000);
		assertThat(pids.stream().distinct().count()).as("workers that ran tasks").isGreaterThan(1);
		pool.resize(1);
		await().atMost(LONG).until(() -> pool.workers().size() == 1 && pool.stats().workers() == 1);
		assertThat(pool.stats().workersLost()).isZero();
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x, 5)).expectNext(5).verifyComplete();
		assertThatThrownBy(() -> pool.resize(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 1");
	}

	@Test
	void closeFinishesAcceptedWorkThenStopsWorkersAndRefusesNewCalls() throws Exception {
		FiberPool pool = fiber.pool(2).name("closing").open();
		// 600 × 5 ms on 2 workers: 1.5 s of work, so the pool is still draining when a worker is killed.
		FiberFunction<Integer, Integer> fiveMs = PoolTest.sleeping(5);
		var accepted = pool.map(fiveMs, Flux.range(0, 600)).collectList().toFuture();
		await().atMost(LONG).until(() -> pool.stats().completed() > 0);
		List<FiberProcess> workers = pool.workers();
		// Starts closing without waiting for it, so a worker can be lost while the pool drains.
		pool.dispose();
		// A worker lost while the pool drains is replaced: accepted work still finishes.
		workers.get(0).pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
		assertThat(accepted.get(LONG.toSeconds(), TimeUnit.SECONDS)).containsExactlyElementsOf(IntStream.range(0, 600).boxed().toList());
		pool.onClose().block(LONG);
		assertThat(workers).isNotEmpty().noneMatch(FiberProcess::isAlive);
		assertThat(pool.workers()).isEmpty();
		assertThat(pool.stats().workersLost()).isEqualTo(1);
		StepVerifier.create(pool.map(fiveMs, List.of(1)))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(PoolClosedException.class).hasMessageContaining("closed"))
				.verify(LONG);
		StepVerifier.create(pool.apply(fiveMs, 1)).expectError(PoolClosedException.class).verify(LONG);
	}

	@Test
	void terminateStopsNowAndFailsWhatWasPending() {
		FiberPool pool = fiber.pool(2).name("stopping").open();
		FiberFunction<Integer, Integer> slow = PoolTest.sleeping(200);
		var pending = pool.map(slow, Flux.range(0, 100)).collectList().toFuture();
		await().atMost(LONG).until(() -> pool.stats().inFlight() > 0);
		List<FiberProcess> workers = pool.workers();
		pool.terminate();
		assertThatThrownBy(pending::join).hasCauseInstanceOf(PoolClosedException.class);
		pool.onClose().block(LONG);
		assertThat(workers).isNotEmpty().noneMatch(FiberProcess::isAlive);
	}

	@Test
	void closingTheFiberTerminatesItsPools() {
		FiberPool pool = fiber.pool(1).name("owned").open();
		var later = fiber.pool(1).name("too-late");
		awaitWorkers(pool, 1);
		fiber.close();
		assertThatThrownBy(later::open).isInstanceOf(PoolClosedException.class).hasMessageContaining("closed");
		pool.onClose().block(LONG);
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x, 1)).expectError(PoolClosedException.class).verify(LONG);
	}
}
