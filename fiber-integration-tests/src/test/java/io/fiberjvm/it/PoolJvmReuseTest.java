package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The JVMs of a closed pool's workers wait, idle, for the next pool of the run with the same resources
 * ({@code worker-idle-time}): real worker JVMs, real kills.
 */
@Timeout(300)
class PoolJvmReuseTest {

	private static final Duration LONG = Duration.ofSeconds(120);

	/** How many times a pool's initializer ran in this JVM. */
	static final AtomicInteger INITIALIZED = new AtomicInteger();

	/** Where a task ran, and how many initializers had run there. */
	record Where(long pid, int initialized) implements java.io.Serializable {
	}

	private static final FiberFunction<Integer, Where> WHERE = value -> {
		SimulatedWork.pause(1);
		return new Where(ProcessHandle.current().pid(), INITIALIZED.get());
	};

	private static FiberPool pool(Fiber fiber, String name) {
		return fiber.pool(2).name(name).initializer(() -> INITIALIZED.incrementAndGet()).open();
	}

	/** The worker JVMs that ran {@code pool}'s tasks, after running enough for both workers to take some. */
	private static List<Where> run(FiberPool pool) {
		await().atMost(LONG).until(() -> pool.stats().workers() == 2 && pool.workers().size() == 2);
		return pool.map(WHERE, Flux.range(0, 200)).collectList().block(LONG);
	}

	private static Set<Long> pids(List<Where> places) {
		return places.stream().map(Where::pid).collect(Collectors.toSet());
	}

	private static void close(FiberPool pool) {
		pool.close();
		pool.onClose().block(LONG);
	}

	private static boolean alive(long pid) {
		return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
	}

	@Test
	void theNextPoolRunsInTheIdleJvmsOfTheLastAndRunsItsOwnInitializerThere() {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "10m").open()) {
			FiberPool first = pool(fiber, "first");
			Set<Long> firstJvms = pids(run(first));
			List<FiberProcess> firstRuns = first.workers();
			close(first);
			assertThat(firstRuns).as("the first pool's runs ended with their pool").allSatisfy(run -> {
				assertThat(run.onExit().block(LONG)).isZero();
				assertThat(run.isAlive()).isFalse();
			});
			assertThat(firstJvms).allMatch(PoolJvmReuseTest::alive);
			assertThat(fiber.status().processes()).extracting(p -> p.state()).containsOnly("idle");

			FiberPool second = pool(fiber, "second");
			List<Where> places = run(second);
			assertThat(pids(places)).isEqualTo(firstJvms);
			assertThat(places).allSatisfy(where -> assertThat(where.initialized()).isEqualTo(2));
			assertThat(second.stats().workersStarted()).isEqualTo(2);
			assertThat(second.workers()).extracting(FiberProcess::name).allMatch(name -> name.startsWith("second-"));

			// A run that has ended leaves alone the JVM that now serves another pool.
			firstRuns.forEach(run -> run.terminate().block(LONG));
			assertThat(pids(second.map(WHERE, Flux.range(0, 50)).collectList().block(LONG))).isEqualTo(firstJvms);
			assertThat(second.stats().workersLost()).isZero();
		}
	}

	@Test
	void anIdleJvmExitsAfterTheIdleTime() {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "1s").open()) {
			FiberPool pool = pool(fiber, "brief");
			Set<Long> jvms = pids(run(pool));
			close(pool);
			await().atMost(LONG).until(() -> jvms.stream().noneMatch(PoolJvmReuseTest::alive));
			await().atMost(LONG).until(() -> fiber.liveProcesses().isEmpty());

			// The next pool starts JVMs of its own.
			FiberPool next = pool(fiber, "next");
			assertThat(pids(run(next))).doesNotContainAnyElementsOf(jvms);
		}
	}

	@Test
	void noIdleTimeEndsTheJvmsWithTheirPool() {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "0s").open()) {
			FiberPool pool = pool(fiber, "once");
			Set<Long> jvms = pids(run(pool));
			List<FiberProcess> workers = pool.workers();
			close(pool);
			assertThat(workers).allSatisfy(worker -> assertThat(worker.onExit().block(LONG)).isZero());
			await().atMost(LONG).until(() -> jvms.stream().noneMatch(PoolJvmReuseTest::alive));
		}
	}

	@Test
	void closingTheFiberLetsIdleJvmsExitWithoutWaitingTheIdleTime() {
		Set<Long> jvms;
		List<FiberProcess> idle;
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "1h").open()) {
			FiberPool pool = pool(fiber, "kept");
			jvms = pids(run(pool));
			close(pool);
			assertThat(jvms).allMatch(PoolJvmReuseTest::alive);
			idle = fiber.liveProcesses();
			assertThat(idle).hasSize(2);
		}
		// Let go, they exit by themselves (a terminated JVM would end with 143).
		assertThat(idle).allSatisfy(jvm -> assertThat(jvm.onExit().block(LONG)).isZero());
		await().atMost(LONG).until(() -> jvms.stream().noneMatch(PoolJvmReuseTest::alive));
	}

	@Test
	void aTerminatedPoolLeavesNoIdleJvm() {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "10m").open()) {
			FiberPool pool = pool(fiber, "stopped");
			Set<Long> jvms = pids(run(pool));
			pool.terminate();
			pool.onClose().onErrorResume(e -> Mono.empty()).block(LONG);
			await().atMost(LONG).until(() -> jvms.stream().noneMatch(PoolJvmReuseTest::alive));
			await().atMost(LONG).until(() -> fiber.liveProcesses().isEmpty());
		}
	}

	@Test
	void aPoolWithGpusDoesNotKeepItsJvmsSoTheirGpusAreFreeAtOnce() {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "10m").set("local-gpus", "0,1").open()) {
			FiberPool gpus = fiber.pool(2).name("gpus").gpu(1).open();
			Set<Long> jvms = pids(run(gpus));
			close(gpus);
			await().atMost(LONG).until(() -> jvms.stream().noneMatch(PoolJvmReuseTest::alive));
			// Both GPUs are free again: a second pool of two one-GPU workers starts.
			FiberPool again = fiber.pool(2).name("again").gpu(1).open();
			assertThat(pids(run(again))).hasSize(2).doesNotContainAnyElementsOf(jvms);
		}
	}

	@Test
	void aPoolAskingForOtherResourcesStartsJvmsOfItsOwn() {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "10m").open()) {
			FiberPool plain = pool(fiber, "plain");
			Set<Long> plainJvms = pids(run(plain));
			close(plain);

			FiberPool sized = fiber.pool(2).name("sized").memory("256Mi").open();
			assertThat(pids(run(sized))).doesNotContainAnyElementsOf(plainJvms);
			assertThat(plainJvms).as("still idle, waiting for a pool like theirs").allMatch(PoolJvmReuseTest::alive);
		}
	}

	@Test
	void aJvmKilledWhileIdleIsNotHandedToTheNextPool() {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "10m").open()) {
			FiberPool first = pool(fiber, "first");
			List<Long> jvms = List.copyOf(pids(run(first)));
			close(first);
			long killed = jvms.get(0);
			ProcessHandle.of(killed).ifPresent(ProcessHandle::destroyForcibly);
			await().atMost(LONG).until(() -> fiber.liveProcesses().size() == 1);

			FiberPool second = pool(fiber, "second");
			Set<Long> secondJvms = pids(run(second));
			assertThat(secondJvms).hasSize(2).contains(jvms.get(1)).doesNotContain(killed);
			assertThat(second.stats().workersLost()).isZero();
		}
	}
}
