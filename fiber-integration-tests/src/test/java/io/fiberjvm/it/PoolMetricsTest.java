package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.micrometer.FiberManagerMetrics;
import io.fiberjvm.micrometer.FiberPoolMetrics;
import io.fiberjvm.micrometer.FiberQueueMetrics;
import io.fiberjvm.micrometer.FiberTransportMetrics;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.TaskResult;
import io.fiberjvm.queue.FiberQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Micrometer meters of a real pool after a known workload: counters, gauges, the latency timer. */
class PoolMetricsTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofMinutes(2);

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private double counter(String name) {
		return registry.get(name).tag("pool", "metered").functionCounter().count();
	}

	private double gauge(String name) {
		return registry.get(name).tag("pool", "metered").gauge().value();
	}

	/** Fails every tenth element. */
	static int tenthFails(int x) {
		if (x % 10 == 0) {
			throw new IllegalArgumentException("no " + x);
		}
		return x;
	}

	@Test
	void countersGaugesAndLatencyAfterAHundredTasksTenOfWhichFail() {
		FiberPool pool = fiber.pool(2).name("metered").open();
		try (FiberPoolMetrics metrics = new FiberPoolMetrics(pool, "metered", Tag.of("team", "rl"))) {
			metrics.bindTo(registry);
			await().atMost(LONG).until(() -> gauge("fiber.pool.workers") == 2);

			List<TaskResult<Integer>> results = pool.mapResults((FiberFunction<Integer, Integer>) PoolMetricsTest::tenthFails,
					Flux.range(0, 100)).collectList().block(LONG);

			assertThat(results).filteredOn(TaskResult::isSuccess).hasSize(90);
			assertThat(counter("fiber.pool.tasks.submitted")).isEqualTo(100);
			assertThat(counter("fiber.pool.tasks.completed")).isEqualTo(90);
			assertThat(counter("fiber.pool.tasks.failed")).isEqualTo(10);
			assertThat(counter("fiber.pool.tasks.lost")).isZero();
			assertThat(counter("fiber.pool.tasks.retried")).isZero();
			assertThat(counter("fiber.pool.workers.started")).isEqualTo(2);
			assertThat(counter("fiber.pool.workers.lost")).isZero();
			assertThat(gauge("fiber.pool.tasks.queued")).isZero();
			assertThat(gauge("fiber.pool.tasks.running")).isZero();
			assertThat(gauge("fiber.pool.workers.target")).isEqualTo(2);
			// A pool of a fixed size: its fewest and its most are its size; nothing waits.
			assertThat(gauge("fiber.pool.workers.min")).isEqualTo(2);
			assertThat(gauge("fiber.pool.workers.max")).isEqualTo(2);
			assertThat(gauge("fiber.pool.queue.wait")).isZero();
			var latency = registry.get("fiber.pool.task.latency").tag("pool", "metered").tag("team", "rl").timer();
			assertThat(latency.count()).isEqualTo(100);
			assertThat(latency.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();

			assertThatThrownBy(() -> metrics.bindTo(new SimpleMeterRegistry())).isInstanceOf(IllegalStateException.class)
					.hasMessageContaining("bound already");
		}
		// Closing the binder removes its meters.
		assertThat(registry.find("fiber.pool.tasks.submitted").meters()).isEmpty();
		assertThat(registry.find("fiber.pool.task.latency").meters()).isEmpty();
	}

	@Test
	void aKilledWorkerIsCountedLostAndReplacedAndItsTasksRetried() {
		FiberPool pool = fiber.pool(2).name("metered").open();
		try (FiberPoolMetrics metrics = new FiberPoolMetrics(pool, "metered")) {
			metrics.bindTo(registry);
			await().atMost(LONG).until(() -> gauge("fiber.pool.workers") == 2);
			long victim = pool.workers().get(0).pid().orElseThrow();
			AtomicInteger seen = new AtomicInteger();
			List<Integer> out = pool.map((FiberFunction<Integer, Integer>) x -> {
				SimulatedWork.pause(2);
				return x;
			}, Flux.range(0, 1000)).doOnNext(x -> {
				if (seen.incrementAndGet() == 100) {
					ProcessHandle.of(victim).ifPresent(ProcessHandle::destroyForcibly);
				}
			}).collectList().block(LONG);

			assertThat(out).hasSize(1000);
			await().atMost(LONG).until(() -> gauge("fiber.pool.workers") == 2);
			assertThat(counter("fiber.pool.workers.lost")).isEqualTo(1);
			assertThat(counter("fiber.pool.workers.replaced")).isEqualTo(1);
			assertThat(counter("fiber.pool.workers.started")).isEqualTo(3);
			assertThat(counter("fiber.pool.tasks.lost") + counter("fiber.pool.tasks.requeued"))
					.as("tasks the killed worker held: charged, or queued again").isPositive();
			assertThat(counter("fiber.pool.tasks.retried")).isEqualTo(counter("fiber.pool.tasks.lost"));
			assertThat(counter("fiber.pool.tasks.submitted")).isEqualTo(1000);
			assertThat(registry.get("fiber.pool.task.latency").timer().count()).isEqualTo(1000);
		}
	}

	@Test
	void transportMetersCountConnectionsBytesAndABadPeer() throws Exception {
		new FiberTransportMetrics(fiber).bindTo(registry);
		FiberPool pool = fiber.pool(2).name("metered").open();
		await().atMost(LONG).until(() -> pool.stats().workers() == 2);
		pool.map((FiberFunction<Integer, Integer>) x -> x, Flux.range(0, 200)).blockLast(LONG);
		String run = fiber.runId();
		double open = registry.get("fiber.transport.connections").tag("run", run).gauge().value();
		assertThat(open).as("a connection per worker JVM at least").isGreaterThanOrEqualTo(2);
		assertThat(registry.get("fiber.transport.connections.accepted").tag("run", run).functionCounter().count())
				.isGreaterThanOrEqualTo(open);
		assertThat(registry.get("fiber.transport.bytes.received").tag("run", run).functionCounter().count()).isPositive();
		assertThat(registry.get("fiber.transport.bytes.sent").tag("run", run).functionCounter().count()).isPositive();
		assertThat(registry.get("fiber.transport.connections.rejected").tag("run", run).functionCounter().count()).isZero();

		// A peer that sends bytes that are not frames is refused and counted.
		var address = fiber.address().block(LONG);
		try (java.net.Socket socket = new java.net.Socket(address.host(), address.port())) {
			byte[] garbage = new byte[4096];
			new java.util.Random(42).nextBytes(garbage);
			// A small length prefix, so the server reads a whole "frame" of garbage at once.
			garbage[0] = 0;
			garbage[1] = 0;
			garbage[2] = 100;
			socket.getOutputStream().write(garbage);
			socket.getOutputStream().flush();
			await().atMost(LONG).until(() -> registry.get("fiber.transport.connections.rejected").tag("run", run).functionCounter().count() == 1);
		}
	}

	@Test
	void childrenAndPoolsThatComeAndGoAreNeverCountedAsRejected() {
		for (int round = 0; round < 4; round++) {
			fiber.process(() -> { }).name("short-" + round).start().flatMap(FiberProcess::join).block(LONG);
			FiberPool pool = fiber.pool(2).workersPerProcess(2).name("brief-" + round).open();
			pool.map((FiberFunction<Integer, Integer>) x -> x, Flux.range(0, 20)).blockLast(LONG);
			pool.close();
		}
		// The children's connections closed as their JVMs exited or went idle; none of them is bad input.
		await().during(Duration.ofSeconds(2)).atMost(LONG).until(() -> fiber.transportStats().rejected() == 0);
		assertThat(fiber.transportStats().accepted()).isGreaterThanOrEqualTo(8);
	}

	@Test
	void queueMetersCountPutsTakesAndDepthOfAQueueHostedHere() {
		FiberQueue<Integer> queue = fiber.queue(Integer.class, 1000);
		new FiberQueueMetrics(queue, "work").bindTo(registry);
		// A child puts 100 items; this process takes 40.
		fiber.process(() -> queue.send(Flux.range(0, 100)).block()).name("producer").start().flatMap(FiberProcess::join).block(LONG);
		assertThat(queue.receive().take(40).collectList().block(LONG)).hasSize(40);

		await().atMost(LONG).until(() -> registry.get("fiber.queue.takes").tag("queue", "work").functionCounter().count() == 40);
		assertThat(registry.get("fiber.queue.puts").tag("queue", "work").functionCounter().count()).isEqualTo(100);
		assertThat(registry.get("fiber.queue.depth").tag("queue", "work").gauge().value()).isEqualTo(60);
		assertThat(registry.get("fiber.queue.unacknowledged").tag("queue", "work").gauge().value()).isZero();
		assertThat(registry.get("fiber.queue.puts.blocked").tag("queue", "work").gauge().value()).isZero();
	}

	@Test
	void queueMetricsForAQueueHostedElsewhereAreRefused() {
		FiberQueue<Integer> queue = fiber.queue(Integer.class);
		FiberQueue<String> answers = fiber.queue(String.class);
		// In a child, this process's queue is a remote handle.
		fiber.process(() -> {
			String answer;
			try {
				new FiberQueueMetrics(queue, "work");
				answer = "accepted";
			}
			catch (IllegalArgumentException e) {
				answer = e.getMessage();
			}
			answers.put(answer).block();
		}).name("binder").start().flatMap(FiberProcess::join).block(LONG);
		assertThat(answers.take().block(LONG)).isEqualTo("queue 'work' is hosted in another process; bind its metrics in the "
				+ "process that made it");
	}

	@Test
	void managerMetersCountCallsFailuresAndLatency() {
		AsyncManager manager = AsyncManager.on(fiber).register(AsyncManagerTest.Counter.class, AsyncManagerTest.Tally.class)
				.name("tallies").start().block(LONG);
		try (FiberManagerMetrics metrics = new FiberManagerMetrics(manager)) {
			metrics.bindTo(registry);
			AsyncManagerTest.Counter counter = manager.create(AsyncManagerTest.Counter.class, 0);
			for (int i = 1; i <= 10; i++) {
				counter.add(i).block(LONG);
			}
			assertThatThrownBy(() -> counter.fail("on purpose").block(LONG)).hasMessageContaining("on purpose");

			// One creation, ten adds and one failing call.
			assertThat(registry.get("fiber.manager.calls").tag("manager", "tallies").functionCounter().count()).isEqualTo(12);
			assertThat(registry.get("fiber.manager.calls.failed").tag("manager", "tallies").functionCounter().count()).isEqualTo(1);
			assertThat(registry.get("fiber.manager.calls.pending").tag("manager", "tallies").gauge().value()).isZero();
			assertThat(registry.get("fiber.manager.call.latency").tag("manager", "tallies").timer().count()).isEqualTo(12);

			// A proxy's answer is a sequence named for Reactor's metrics, tagged with the manager and method.
			counter.add(11).tap(reactor.core.observability.micrometer.Micrometer.metrics(registry)).block(LONG);
			assertThat(registry.get("fiber.manager.call.flow.duration").tag("manager", "tallies").tag("method", "add").timer().count())
					.isEqualTo(1);

			// Calls on shared objects, from a child and from here, counted where they are served.
			io.fiberjvm.manager.SharedCounter shared = manager.counter("hits");
			fiber.process(() -> {
				for (int i = 0; i < 20; i++) {
					shared.incrementAndGet().block();
				}
			}).name("hitter").start().flatMap(FiberProcess::join).block(LONG);
			for (int i = 0; i < 5; i++) {
				shared.incrementAndGet().block(LONG);
			}
			assertThatThrownBy(() -> manager.<String>list("empty").get(3).block(LONG)).hasMessageContaining("3");
			org.awaitility.Awaitility.await().atMost(LONG).untilAsserted(() -> assertThat(
					registry.get("fiber.manager.shared.calls").tag("manager", "tallies").functionTimer().count()).isEqualTo(26));
			assertThat(registry.get("fiber.manager.shared.calls.failed").tag("manager", "tallies").functionCounter().count()).isEqualTo(1);
			assertThat(registry.get("fiber.manager.shared.calls").tag("manager", "tallies").functionTimer()
					.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();
			assertThat(manager.stats().sharedCalls()).isEqualTo(26);
			// Proxy calls are counted on their own.
			assertThat(manager.stats().calls()).isEqualTo(13);

			assertThat(registry.get("fiber.manager.restarts").tag("manager", "tallies").functionCounter().count()).isZero();
			manager.restart().block(LONG);
			assertThat(registry.get("fiber.manager.restarts").tag("manager", "tallies").functionCounter().count()).isEqualTo(1);
		}
		finally {
			manager.close();
		}
	}

	@Test
	void reactorsOwnMetricsNameAPoolsMapAndAQueuesReceiveAfterThem() {
		FiberPool pool = fiber.pool(1).name("tapped").open();
		List<Integer> results = pool.map((FiberFunction<Integer, Integer>) x -> x + 1, Flux.range(0, 50))
				.tap(reactor.core.observability.micrometer.Micrometer.metrics(registry)).collectList().block(LONG);
		assertThat(results).hasSize(50);
		// The sequence's name is the meters' prefix; its tag names the pool.
		assertThat(registry.get("fiber.pool.map.flow.duration").tag("pool", "tapped").tag("status", "completed").timer().count())
				.isEqualTo(1);
		assertThat(registry.get("fiber.pool.map.onNext.delay").tag("pool", "tapped").timer().count()).isEqualTo(50);

		io.fiberjvm.queue.FiberQueue<String> queue = fiber.queue(String.class);
		queue.send(Flux.just("a", "b", "c")).block(LONG);
		assertThat(queue.receive().tap(reactor.core.observability.micrometer.Micrometer.metrics(registry)).take(3).collectList()
				.block(LONG)).containsExactly("a", "b", "c");
		assertThat(registry.get("fiber.queue.receive.onNext.delay").tag("queue", queue.id()).timer().count()).isEqualTo(3);
		queue.put("d").block(LONG);
		assertThat(queue.take().tap(reactor.core.observability.micrometer.Micrometer.metrics(registry)).block(LONG)).isEqualTo("d");
		assertThat(registry.get("fiber.queue.take.flow.duration").tag("queue", queue.id()).timer().count()).isEqualTo(1);
	}
}
