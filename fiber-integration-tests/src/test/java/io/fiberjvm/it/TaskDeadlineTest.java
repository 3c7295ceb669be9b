package io.fiberjvm.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.TaskResult;
import io.fiberjvm.pool.TaskTimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Task deadlines and cancels reach the worker running the task: it is interrupted, and a task that will not stop costs its JVM. */
@Timeout(300)
class TaskDeadlineTest {

	private static final Duration LONG = Duration.ofMinutes(2);

	private Fiber fiber;
	@TempDir
	Path dir;

	@BeforeEach
	void open() {
		// A task that ignores its interrupt costs its JVM one second after its deadline.
		fiber = Fiber.builder().set("task-timeout-grace", "1s").open();
	}

	@AfterEach
	void close() {
		fiber.close();
	}

	/**
	 * Marks {@code x} started in {@code dir}, sleeps for {@code ms} unless interrupted, and marks how it ended:
	 * interrupted, or done.
	 */
	static int sleeps(int x, long ms, String dir) {
		mark(dir, x + ".started");
		try {
			SimulatedWork.awaitUnlessInterrupted(ms);
		}
		catch (InterruptedException e) {
			mark(dir, x + ".interrupted");
			throw new IllegalStateException("interrupted", e);
		}
		mark(dir, x + ".done");
		return x;
	}

	/** Spins for two minutes, deaf to interrupts, as a simulator stuck in native code would. */
	static int spins(int x) {
		long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
		while (System.nanoTime() < end) {
			Thread.onSpinWait();
		}
		return x;
	}

	private static void mark(String dir, String name) {
		try {
			Files.writeString(Path.of(dir, name), "");
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private Set<String> marks(String suffix) {
		try (var files = Files.list(dir)) {
			return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(suffix)).collect(Collectors.toSet());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private static Set<Long> pids(FiberPool pool) {
		return pool.workers().stream().map(worker -> worker.pid().orElseThrow()).collect(Collectors.toSet());
	}

	@Test
	void aTaskSleepingForeverWithAOneSecondDeadlineIsInterruptedAndFailsNamingItWhileItsWorkerGoesOn() {
		FiberPool pool = fiber.pool(1).name("deadline").open();
		await().atMost(LONG).until(() -> pool.stats().workers() == 1);
		Set<Long> before = pids(pool);
		String marks = dir.toString();
		FiberFunction<Integer, Integer> forever = x -> sleeps(x, Long.MAX_VALUE, marks);

		StepVerifier.create(pool.taskTimeout(Duration.ofSeconds(1)).apply(forever, 5))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOfSatisfying(TaskTimeoutException.class, timeout -> {
					assertThat(timeout.timeout()).isEqualTo(Duration.ofSeconds(1));
					assertThat(timeout.task()).contains("apply");
					assertThat(timeout).hasMessageContaining("ran past its deadline of PT1S").hasMessageContaining("interrupted and stopped");
				}))
				.verify(LONG);
		assertThat(marks(".interrupted")).containsExactly("5.interrupted");
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x + 1, 1)).expectNext(2).verifyComplete();
		assertThat(pids(pool)).as("the same worker JVM").isEqualTo(before);
		assertThat(pool.stats().workersLost()).isZero();
		assertThat(pool.stats().failed()).isEqualTo(1);
	}

	@ParameterizedTest(name = "{0} worker(s) per JVM")
	@ValueSource(ints = {1, 2})
	void aTaskDeafToItsInterruptFailsAloneAndItsJvmIsReplacedWhileItsNeighboursComplete(int perProcess) {
		FiberPool pool = fiber.pool(2).name("stuck").workersPerProcess(perProcess).open();
		FiberFunction<Integer, Integer> stuckOnZero = x -> x == 0 ? spins(x) : x * 10;

		List<TaskResult<Integer>> results = pool.taskTimeout(Duration.ofSeconds(1))
				.mapResults(stuckOnZero, Flux.range(0, 6)).collectList().block(LONG);

		assertThat(results).hasSize(6);
		assertThat(results.get(0).error()).isInstanceOfSatisfying(TaskTimeoutException.class,
				e -> assertThat(e).hasMessageContaining("element 0").hasMessageContaining("did not stop")
						.hasMessageContaining("JVM is replaced"));
		assertThat(results.subList(1, 6)).allSatisfy(result -> assertThat(result.isSuccess()).isTrue());
		assertThat(results.subList(1, 6)).extracting(TaskResult::value).containsExactly(10, 20, 30, 40, 50);
		await().atMost(LONG).until(() -> pool.stats().workersReplaced() >= 1 && pool.stats().workers() == 2);
		assertThat(pool.stats().lost()).as("no attempt charged for the replacement").isZero();
		StepVerifier.create(pool.map((FiberFunction<Integer, Integer>) x -> x + 1, List.of(1, 2))).expectNext(2, 3).verifyComplete();
	}

	@Test
	void cancellingAMapInterruptsItsRunningTasksOnTheirWorkers() {
		FiberPool pool = fiber.pool(2).name("cancel").open();
		String marks = dir.toString();
		FiberFunction<Integer, Integer> aMinute = x -> sleeps(x, 60_000, marks);

		Disposable call = pool.map(aMinute, Flux.range(0, 6)).subscribe();
		await().atMost(LONG).until(() -> marks(".started").size() == 2);
		call.dispose();

		// Were they not interrupted, they would hold their workers for a minute.
		await().atMost(Duration.ofSeconds(30)).until(() -> marks(".interrupted").size() == 2);
		await().atMost(Duration.ofSeconds(30)).until(pool::stats, stats -> stats.inFlight() == 0 && stats.queued() == 0);
		assertThat(marks(".started")).as("queued tasks never ran").hasSize(2);
		assertThat(pool.stats().failed()).as("a cancelled task is not a failure").isZero();
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x + 1, 1)).expectNext(2).verifyComplete();
	}

	@Test
	void cancellingAnApplyInterruptsItsTask() {
		FiberPool pool = fiber.pool(1).name("cancel-one").open();
		String marks = dir.toString();
		FiberFunction<Integer, Integer> aMinute = x -> sleeps(x, 60_000, marks);

		Disposable call = pool.apply(aMinute, 3).subscribe();
		await().atMost(LONG).until(() -> marks(".started").contains("3.started"));
		call.dispose();
		await().atMost(Duration.ofSeconds(30)).until(() -> marks(".interrupted").contains("3.interrupted"));
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x + 1, 1)).expectNext(2).verifyComplete();
	}

	@Test
	void thePoolsDeadlineHoldsForEveryCallUnlessAViewChangesIt() {
		FiberPool pool = fiber.pool(1).name("pool-deadline").taskTimeout(Duration.ofMillis(500)).open();
		String marks = dir.toString();
		FiberFunction<Integer, Integer> twoSeconds = x -> sleeps(x, 2_000, marks);

		StepVerifier.create(pool.apply(twoSeconds, 1)).expectError(TaskTimeoutException.class).verify(LONG);
		StepVerifier.create(pool.taskTimeout(Duration.ZERO).apply(twoSeconds, 2)).expectNext(2).verifyComplete();
		assertThat(pool.taskTimeout(Duration.ofSeconds(3)).toString()).contains("task timeout PT3S");
	}

	@Test
	void aDeadlineThatIsNegativeOrMissingIsRefusedAtTheCaller() {
		FiberPool pool = fiber.pool(1).name("refused").open();
		assertThatThrownBy(() -> pool.taskTimeout(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("negative").hasMessageContaining("Duration.ZERO for none");
		assertThatThrownBy(() -> pool.taskTimeout(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("timeout");
		assertThatThrownBy(() -> fiber.pool(1).taskTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than a JVM can time");
	}
}
