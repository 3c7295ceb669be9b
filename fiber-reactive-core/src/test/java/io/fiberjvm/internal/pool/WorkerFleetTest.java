package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.pool.WorkerStartException;
import io.fiberjvm.runtime.InProcessRuntime;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pool's fleet of workers against processes the test runs by hand: how many start at once, which are
 * replaced and when, when failed starts fail the pool's calls, which a resize retires, and when the fleet has ended.
 */
class WorkerFleetTest {

	/** The processes started, by name, in the order they were asked for. */
	private final Map<String, FakeProcess> processes = new ConcurrentHashMap<>();
	private final List<String> startOrder = new CopyOnWriteArrayList<>();
	private final InProcessRuntime runtime = FakeProcess.runtimeStarting(processes, startOrder);
	private final AtomicInteger retirements = new AtomicInteger();
	private final AtomicInteger allEnded = new AtomicInteger();
	private final PoolLifecycle lifecycle = new PoolLifecycle("p", retirements::incrementAndGet);
	private final Dispatcher dispatcher = new Dispatcher(1 << 19, (task, outcome) -> { });

	private WorkerFleet fleet(int size, int perProcess, RestartBackoff backoff) {
		return new WorkerFleet(runtime, "p", size, perProcess, ResourceSpec.NONE,
				workers -> runtime -> { }, backoff, dispatcher, lifecycle, allEnded::incrementAndGet);
	}

	private List<String> states(WorkerFleet fleet) {
		return fleet.states().stream().map(RunStatus.Worker::state).toList();
	}

	@Test
	void workersStartAFewProcessesAtATimeAndTheRestWaitTheirTurn() {
		WorkerFleet fleet = fleet(2 * startLimit() + 1, 1, RestartBackoff.DEFAULT);
		fleet.ensureWorkers();
		assertThat(startOrder).hasSize(startLimit());
		assertThat(states(fleet)).filteredOn("waiting"::equals).hasSize(startLimit() + 1);
		processes.get("p-w1").run();
		assertThat(startOrder).as("one running lets the next start").hasSize(startLimit() + 1);
		// Each process that runs lets one more start, until all have.
		for (int i = 0; i < 2 * startLimit() + 1; i++) {
			startOrder.forEach(name -> processes.get(name).run());
		}
		assertThat(startOrder).hasSize(2 * startLimit() + 1);
		assertThat(fleet.counters()).containsExactly(2L * startLimit() + 1, 0, 0);
	}

	@Test
	void aWorkerThatConnectedIsReplacedAtOnceAndOnesThatFailedToStartAfterAGrowingJitteredDelay() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		try {
			WorkerFleet fleet = fleet(1, 1, new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(3)));
			fleet.ensureWorkers();
			assertThat(fleet.admit("p-w1")).isEqualTo(Admission.ADMITTED);
			processes.get("p-w1").exit(137);
			assertThat(startOrder).as("replaced at once").containsExactly("p-w1", "p-w2");
			assertThat(fleet.counters()).as("started, lost, replaced").containsExactly(2L, 1L, 1L);

			processes.get("p-w2").exit(1);
			time.advanceTimeBy(Duration.ofMillis(999));
			assertThat(startOrder).as("one that failed to start is replaced after the backoff, 1 s to 1.5 s").hasSize(2);
			time.advanceTimeBy(Duration.ofMillis(501));
			assertThat(startOrder).containsExactly("p-w1", "p-w2", "p-w3");
			processes.get("p-w3").timeOut();
			time.advanceTimeBy(Duration.ofMillis(999));
			assertThat(startOrder).as("a start that timed out failed too: 2 s, give or take 1 s").hasSize(3);
			time.advanceTimeBy(Duration.ofMillis(2001));
			assertThat(startOrder).hasSize(4);
			// One that connects resets it: the next loss is replaced at once.
			fleet.admit("p-w4");
			processes.get("p-w4").exit(137);
			assertThat(startOrder).hasSize(5);
			assertThat(fleet.counters()).containsExactly(5L, 4L, 4L);
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}

	@Test
	void aProcessKilledWhileStartingIsReplacedAtOnceAsOftenAsItHappens() {
		WorkerFleet fleet = fleet(2, 1, new RestartBackoff(Duration.ofSeconds(10), Duration.ofSeconds(10)));
		fleet.ensureWorkers();
		for (int i = 0; i < 20; i++) {
			String starting = startOrder.get(startOrder.size() - 1);
			processes.get(starting).exit(i % 2 == 0 ? 137 : 143);
			assertThat(startOrder).as("an outside hand's kill is not a broken worker").hasSize(3 + i);
		}
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submitTo(dispatcher).subscribe(v -> { }, errors::add);
		assertThat(errors).as("nor a reason to fail calls").isEmpty();
	}

	@Test
	void aJvmThatAbortsAsItStartsFailedToStartAndSoDoesOneWhoseWorkersDoNotConnectInTime() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		try {
			WorkerFleet fleet = fleet(1, 1, new RestartBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)));
			fleet.ensureWorkers();
			processes.get("p-w1").exit(134);
			time.advanceTimeBy(Duration.ofMillis(499));
			assertThat(startOrder).as("SIGABRT is the JVM's own: backed off").hasSize(1);
			time.advanceTimeBy(Duration.ofMillis(501));
			assertThat(startOrder).hasSize(2);

			// Running, its target fetched, but its initializer never returns: stopped at the start timeout.
			processes.get("p-w2").run();
			time.advanceTimeBy(Duration.ofSeconds(60));
			assertThat(processes.get("p-w2").terminated).isTrue();
			time.advanceTimeBy(Duration.ofMillis(499));
			assertThat(startOrder).as("stopped by the fleet's start timeout, so a failed start").hasSize(2);
			time.advanceTimeBy(Duration.ofMillis(501));
			assertThat(startOrder).hasSize(3);
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}

	@Test
	void afterEnoughFailedStartsInARowAPoolWithNoWorkerFailsItsCallsWithTheLastStartsErrorUntilOneConnects() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		try {
			WorkerFleet fleet = fleet(1, 1, new RestartBackoff(Duration.ofMillis(100), Duration.ofMillis(100)));
			List<Throwable> errors = new CopyOnWriteArrayList<>();
			submitTo(dispatcher).subscribe(v -> { }, errors::add);
			fleet.ensureWorkers();
			processes.get("p-w1").exit(1);
			time.advanceTimeBy(Duration.ofMillis(200));
			processes.get("p-w2").exit(1);
			time.advanceTimeBy(Duration.ofMillis(200));
			assertThat(errors).as("two failures are not yet the default three").isEmpty();
			processes.get("p-w3").exit(3);
			assertThat(errors).singleElement().isInstanceOfSatisfying(WorkerStartException.class, e -> {
				assertThat(e.failures()).isEqualTo(3);
				assertThat(e.pool()).isEqualTo("p");
				assertThat(e).hasMessageContaining("p-w3 exited with code 3").hasCauseInstanceOf(ProcessFailedException.class);
			});
			submitTo(dispatcher).subscribe(v -> { }, errors::add);
			assertThat(errors).as("a new call fails at once").hasSize(2);

			time.advanceTimeBy(Duration.ofMillis(200));
			assertThat(startOrder).as("it goes on trying").hasSize(4);
			processes.get("p-w4").run();
			assertThat(fleet.admit("p-w4")).isEqualTo(Admission.ADMITTED);
			openSession("p-w4");
			submitTo(dispatcher).subscribe(v -> { }, errors::add);
			assertThat(errors).as("a worker connected: calls wait for it again").hasSize(2);
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}

	@Test
	void aResizeRetiresWorkersStillStartingFirstAndTheNewestFirst() {
		WorkerFleet fleet = fleet(4, 1, RestartBackoff.DEFAULT);
		fleet.ensureWorkers();
		processes.values().forEach(FakeProcess::run);
		processes.values().forEach(FakeProcess::run);
		assertThat(fleet.admit("p-w1")).isEqualTo(Admission.ADMITTED);
		assertThat(fleet.admit("p-w2")).isEqualTo(Admission.ADMITTED);
		fleet.resize(1);
		assertThat(fleet.isRetired("p-w4")).isTrue();
		assertThat(fleet.isRetired("p-w3")).isTrue();
		assertThat(fleet.isRetired("p-w2")).as("the newest of the attached").isTrue();
		assertThat(fleet.isRetired("p-w1")).isFalse();
		// Processes that none of whose workers attached are stopped at once; attached ones finish first.
		assertThat(processes.get("p-w3").terminated).isTrue();
		assertThat(processes.get("p-w4").terminated).isTrue();
		assertThat(processes.get("p-w2").terminated).isFalse();
		assertThat(fleet.admit("p-w3")).as("a session arriving for a retired worker").isEqualTo(Admission.UNKNOWN);
		assertThat(fleet.size()).isEqualTo(1);
		assertThat(fleet.counters()).as("retired workers are not lost, and none is replaced").containsExactly(4L, 0L, 0L);
		assertThat(startOrder).hasSize(4);
	}

	@Test
	void workersOfOneProcessShareItsFate() {
		WorkerFleet fleet = fleet(4, 2, RestartBackoff.DEFAULT);
		fleet.ensureWorkers();
		assertThat(startOrder).containsExactly("p-p1", "p-p2");
		processes.values().forEach(FakeProcess::run);
		for (String worker : List.of("p-w1", "p-w2", "p-w3", "p-w4")) {
			assertThat(fleet.admit(worker)).isEqualTo(Admission.ADMITTED);
		}
		assertThat(fleet.processes()).hasSize(2);
		processes.get("p-p1").exit(137);
		assertThat(fleet.counters()).as("both its workers lost, and replaced as one process").containsExactly(6L, 2L, 2L);
		assertThat(startOrder).containsExactly("p-p1", "p-p2", "p-p3");
	}

	@Test
	void retiringEndsOnceEveryProcessHasEnded() {
		WorkerFleet fleet = fleet(2, 1, RestartBackoff.DEFAULT);
		fleet.ensureWorkers();
		processes.values().forEach(FakeProcess::run);
		fleet.admit("p-w1");
		lifecycle.close();
		fleet.retireAll();
		assertThat(processes.get("p-w2").terminated).as("still starting: stopped").isTrue();
		assertThat(allEnded).hasValue(0);
		processes.get("p-w1").exit(0);
		assertThat(allEnded).hasValue(1);
		assertThat(startOrder).as("nothing replaced while retiring").hasSize(2);
		assertThat(fleet.counters()[1]).isZero();
	}

	@Test
	void terminatingStopsEveryProcessAndDropsThoseWaiting() {
		WorkerFleet fleet = fleet(startLimit() + 1, 1, RestartBackoff.DEFAULT);
		fleet.ensureWorkers();
		assertThat(lifecycle.terminate()).isTrue();
		fleet.terminateAll();
		assertThat(processes.values()).allMatch(p -> p.terminated);
		assertThat(startOrder).as("the waiting one never starts").hasSize(startLimit());
		assertThat(allEnded).hasValue(1);
		assertThat(fleet.states()).isEmpty();
	}

	/** A task of a function that is never run, submitted to {@code dispatcher}. */
	private static Mono<Object> submitTo(Dispatcher dispatcher) {
		ShippedFunction function = new ShippedFunction((FiberFunction<Integer, Integer>) x -> x, FiberFunction.class,
				new ShippedValues(List.of()));
		return Mono.create(sink -> dispatcher.submit(new Task(1, function, null, new TaskName("map", 1, function), 1, 0, true,
				TaskSink.of(sink))));
	}

	/** A session of {@code worker} with the dispatcher, asking for chunks it never answers. */
	private void openSession(String worker) {
		Flux.<byte[]>create(sink -> {
			WorkerSession session = dispatcher.open(worker, worker, sink);
			sink.onRequest(n -> dispatcher.credit(session));
		}).subscribe();
	}

	private static int startLimit() {
		return WorkerFleet.STARTS_PER_CORE * Math.max(1, Runtime.getRuntime().availableProcessors());
	}
}
