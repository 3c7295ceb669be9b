package io.fiberjvm.it;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.util.retry.Retry;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolStats;
import io.fiberjvm.pool.WorkerLostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Several pool workers in one JVM ({@code workersPerProcess}): real worker JVMs, real SIGKILL. */
class PoolWorkerSlotsTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(180);

	/** How many times the pool's initializer ran in this JVM. */
	static final AtomicInteger INITIALIZED = new AtomicInteger();

	/** Where a task ran: the worker JVM, the worker's thread, and how often the initializer ran there. */
	record Where(long pid, String thread, int initialized, int value) implements java.io.Serializable {
	}

	static Where where(int value) {
		SimulatedWork.pause(2);
		return new Where(ProcessHandle.current().pid(), Thread.currentThread().getName(), INITIALIZED.get(), value);
	}

	private static final FiberFunction<Integer, Where> WHERE = PoolWorkerSlotsTest::where;

	private static FiberPool slotted(Fiber fiber, int workers, int perProcess) {
		return fiber.pool(workers).name("slots").workersPerProcess(perProcess)
				.initializer(() -> INITIALIZED.incrementAndGet())
				.open();
	}

	private static void awaitWorkers(FiberPool pool, int workers, int processes) {
		await().atMost(LONG).until(() -> pool.stats().workers() == workers && pool.workers().size() == processes);
	}

	@Test
	void sixWorkersInTwoJvmsEachWorkerOnItsOwnThreadAndOneInitializerPerJvm() {
		FiberPool pool = slotted(fiber, 6, 3);
		awaitWorkers(pool, 6, 2);
		List<Where> out = pool.map(WHERE, Flux.range(0, 600)).collectList().block(LONG);

		assertThat(out).extracting(Where::value).containsExactlyElementsOf(IntStream.range(0, 600).boxed().toList());
		Set<Long> jvms = new HashSet<>();
		Set<String> workers = new HashSet<>();
		out.forEach(w -> {
			jvms.add(w.pid());
			workers.add(w.pid() + "/" + w.thread());
		});
		assertThat(jvms).containsExactlyInAnyOrderElementsOf(pool.workers().stream().map(p -> p.pid().orElseThrow()).toList());
		assertThat(workers).hasSize(6);
		assertThat(out).allSatisfy(w -> assertThat(w.initialized()).isEqualTo(1));
		assertThat(out).allSatisfy(w -> assertThat(w.pid()).isNotEqualTo(ProcessHandle.current().pid()));
		assertThat(pool.stats().workersStarted()).isEqualTo(6);
	}

	@Test
	void aKilledJvmLosesAllItsWorkersTheirTasksAreRetriedInOrderAndTheyAreReplaced() {
		FiberPool pool = slotted(fiber, 6, 3);
		awaitWorkers(pool, 6, 2);
		FiberProcess victim = pool.workers().get(0);
		long victimPid = victim.pid().orElseThrow();
		AtomicInteger seen = new AtomicInteger();
		List<Where> out = pool.map(WHERE, Flux.range(0, 3000))
				.doOnNext(w -> {
					// Once the map is well under way, kill one of the two JVMs.
					if (seen.incrementAndGet() == 300) {
						ProcessHandle.of(victimPid).ifPresent(ProcessHandle::destroyForcibly);
					}
				})
				.collectList().block(LONG);

		assertThat(out).extracting(Where::value).containsExactlyElementsOf(IntStream.range(0, 3000).boxed().toList());
		awaitWorkers(pool, 6, 2);
		PoolStats stats = pool.stats();
		assertThat(stats.lost() + stats.requeued()).as("tasks the killed JVM held: charged, or queued again").isPositive();
		assertThat(stats.retried()).isEqualTo(stats.lost());
		assertThat(stats.workersLost()).isEqualTo(3);
		assertThat(stats.workersStarted()).isEqualTo(9);
		assertThat(pool.workers()).noneMatch(p -> p.pid().orElse(-1) == victimPid);
		// Both JVMs, the replacement among them, take tasks; the replacement ran the initializer once for its three workers.
		List<Where> after = pool.map(WHERE, Flux.range(0, 300)).collectList().block(LONG);
		assertThat(after.stream().map(Where::pid).distinct())
				.containsExactlyInAnyOrderElementsOf(pool.workers().stream().map(p -> p.pid().orElseThrow()).toList());
		assertThat(after).allSatisfy(w -> assertThat(w.initialized()).isEqualTo(1));
	}

	@Test
	void resizingRetiresWholeJvmsFirstAndGrowsInJvmsOfTheSameSize() {
		FiberPool pool = slotted(fiber, 6, 3);
		awaitWorkers(pool, 6, 2);
		List<Long> before = pool.workers().stream().map(p -> p.pid().orElseThrow()).toList();

		pool.resize(2);
		// The newest JVM's three workers and one of the oldest's go; the newest JVM exits once worker-idle-time has passed
		// with no pool wanting it.
		awaitWorkers(pool, 2, 1);
		assertThat(pool.workers().get(0).pid().orElseThrow()).isEqualTo(before.get(0));
		await().atMost(LONG).until(() -> ProcessHandle.of(before.get(1)).map(h -> !h.isAlive()).orElse(true));
		List<Where> small = pool.map(WHERE, Flux.range(0, 200)).collectList().block(LONG);
		assertThat(small).extracting(Where::value).containsExactlyElementsOf(IntStream.range(0, 200).boxed().toList());
		assertThat(small.stream().map(Where::thread).distinct()).hasSize(2);

		pool.resize(5);
		awaitWorkers(pool, 5, 2);
		List<Where> grown = pool.map(WHERE, Flux.range(0, 500)).collectList().block(LONG);
		assertThat(grown.stream().map(w -> w.pid() + "/" + w.thread()).distinct()).hasSize(5);
		assertThat(pool.stats().workersLost()).isZero();

		// Closing after a partial resize: every JVM, the one that lost workers to the resize too, exits cleanly.
		List<FiberProcess> jvms = pool.workers();
		pool.close();
		pool.onClose().block(LONG);
		assertThat(jvms).allSatisfy(p -> assertThat(p.onExit().block(LONG)).isZero());
	}

	@Test
	void closingWhileWorkerJvmsWaitTheirTurnToStartEndsThemAll() {
		// Eight JVMs of one worker: on this machine only as many as it has cores start at once.
		FiberPool pool = fiber.pool(8).name("queued").open();
		pool.close();
		pool.onClose().block(LONG);
		// Worker JVMs are named after their pool in their command line (their job id).
		await().atMost(LONG).until(() -> ProcessHandle.current().descendants()
				.noneMatch(p -> p.isAlive() && p.info().commandLine().map(c -> c.contains(" queued-w")).orElse(false)));
		assertThat(pool.stats().workers()).isZero();
	}

	@Test
	void closingEndsEveryWorkerJvm() {
		FiberPool pool = slotted(fiber, 4, 2)
				.retry(Retry.max(2).filter(WorkerLostException.class::isInstance));
		awaitWorkers(pool, 4, 2);
		List<FiberProcess> jvms = pool.workers();
		assertThat(pool.map(WHERE, Flux.range(0, 100)).count().block(LONG)).isEqualTo(100);
		pool.close();
		pool.onClose().block(LONG);
		assertThat(jvms).noneMatch(FiberProcess::isAlive);
		assertThat(jvms).allSatisfy(p -> assertThat(p.onExit().block(LONG)).isZero());
	}

	@Test
	void fewerThanOneWorkerPerProcessIsRefused() {
		assertThatThrownBy(() -> fiber.pool(4).workersPerProcess(0))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("workers per process must be at least 1, not 0");
	}
}
