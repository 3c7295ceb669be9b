package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.manager.Manager;
import io.fiberjvm.manager.SharedCounter;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.queue.FiberQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What a program sees on every backend, as JUnit 5 default methods: processes, queues, pools (with a
 * worker lost mid-map), rings and managers work unchanged. A backend's test class implements this interface
 * and says how to open a runtime on it and how a worker is lost there.
 */
public interface RuntimeContract {

	Duration LONG = Duration.ofSeconds(180);

	/** A runtime on the backend under test, with these configuration keys set; the implementation closes it after the test. */
	Fiber openFiber(java.util.Map<String, String> settings);

	/** A runtime on the backend under test; the implementation closes it after the test. */
	default Fiber openFiber() {
		return openFiber(java.util.Map.of());
	}

	/** {@code builder} with {@code settings} set on it, for {@link #openFiber(java.util.Map)}. */
	static io.fiberjvm.FiberBuilder with(io.fiberjvm.FiberBuilder builder, java.util.Map<String, String> settings) {
		io.fiberjvm.FiberBuilder set = builder;
		for (var setting : settings.entrySet()) {
			set = set.set(setting.getKey(), setting.getValue());
		}
		return set;
	}

	/** Loses {@code worker} the way this backend loses one: SIGKILL, a deleted pod. */
	void loseWorker(Fiber fiber, FiberProcess worker);

	@Test
	default void aProcessRunsItsTargetAndReportsHowItEnded() {
		Fiber fiber = openFiber();
		FiberProcess ok = fiber.process(() -> System.out.println("ran in a child")).name("ok").start().block(LONG);
		ok.join().block(LONG);
		assertThat(ok.logs().collectList().block(LONG)).contains("ran in a child");
		FiberProcess broken = fiber.process(() -> {
			throw new IllegalStateException("broken on purpose");
		}).name("broken").start().block(LONG);
		assertThatThrownBy(() -> broken.join().block(LONG)).isInstanceOf(ProcessFailedException.class)
				.cause().hasMessageContaining("broken on purpose");
		assertThat(broken.onExit().block(LONG)).isEqualTo(1);
	}

	@Test
	default void aChildSendsThroughAQueueItsParentHosts() {
		Fiber fiber = openFiber();
		FiberQueue<Integer> queue = fiber.queue(Integer.class, 16);
		FiberProcess child = fiber.process(() -> queue.send(Flux.range(0, 500)).block()).name("producer").start().block(LONG);
		assertThat(queue.receive().take(500).collectList().block(LONG))
				.containsExactlyElementsOf(IntStream.range(0, 500).boxed().toList());
		child.join().block(LONG);
	}

	@Test
	default void aPoolMapsInOrder() {
		Fiber fiber = openFiber();
		FiberPool pool = fiber.pool(2).open();
		List<Integer> doubled = pool.map((FiberFunction<Integer, Integer>) x -> x * 2, Flux.range(0, 300)).collectList().block(LONG);
		assertThat(doubled).containsExactlyElementsOf(IntStream.range(0, 300).map(x -> x * 2).boxed().toList());
	}

	@Test
	default void everyIdempotentTaskComesBackWhenAWorkerIsLostMidMap() {
		Fiber fiber = openFiber();
		FiberPool pool = fiber.pool(3).open();
		AtomicBoolean lost = new AtomicBoolean();
		List<Integer> results = pool.map((FiberFunction<Integer, Integer>) x -> {
			java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
			return x + 1;
		}, Flux.range(0, 3000)).doOnNext(x -> {
			// Once work is flowing, a working worker goes away (off the result thread: losing one may block).
			if (x == 300 && lost.compareAndSet(false, true)) {
				Schedulers.boundedElastic().schedule(() -> loseWorker(fiber, pool.workers().get(0)));
			}
		}).collectList().block(LONG);
		assertThat(lost).isTrue();
		assertThat(results).containsExactlyElementsOf(IntStream.range(1, 3001).boxed().toList());
		assertThat(pool.stats().workersLost()).isGreaterThanOrEqualTo(1);
	}

	@Test
	default void aRingAllReducesAndGathersAcrossItsMembers() {
		Fiber fiber = openFiber();
		FiberQueue<String> results = fiber.queue(String.class, 16);
		fiber.ring(3).name("contract-ring").run(ring -> {
			double[] summed = ring.allReduce(new double[] {ring.rank(), 1, 2, 3, 4}, io.fiberjvm.ring.ReduceOp.SUM).block();
			java.util.List<double[]> all = ring.gather(summed).block();
			if (ring.rank() == 0) {
				results.put(all.stream().map(java.util.Arrays::toString).toList().toString()).block();
			}
		}).block(LONG);
		assertThat(results.receive().blockFirst(LONG))
				.isEqualTo("[[3.0, 3.0, 6.0, 9.0, 12.0], [3.0, 3.0, 6.0, 9.0, 12.0], [3.0, 3.0, 6.0, 9.0, 12.0]]");
	}

	@Test
	default void aManagerHostsObjectsThatPoolWorkersShare() {
		Fiber fiber = openFiber();
		Manager manager = Manager.on(fiber).name("shared").start().block(LONG);
		SharedCounter counter = manager.counter("hits");
		FiberPool pool = fiber.pool(2).open();
		List<Long> seen = pool.map((FiberFunction<Integer, Long>) x -> counter.blocking().incrementAndGet(), Flux.range(0, 20))
				.collectList().block(LONG);
		assertThat(seen).doesNotHaveDuplicates().hasSize(20);
		assertThat(counter.blocking().get()).isEqualTo(20);
	}

	/** What {@code appender} holds now: it appends under its own lock, on the thread that logs, while a test reads. */
	private static List<ch.qos.logback.classic.spi.ILoggingEvent> linesOf(
			ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender) {
		synchronized (appender) {
			return new java.util.ArrayList<>(appender.list);
		}
	}

	@Test
	default void withChildLogsParentAChildsLinesReachTheParentsLogWhileItRunsWithItsIdentity() {
		ch.qos.logback.classic.Logger children = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("fiber.child");
		ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> seen = new ch.qos.logback.core.read.ListAppender<>();
		seen.start();
		children.addAppender(seen);
		try {
			Fiber fiber = openFiber(java.util.Map.of("child-logs", "parent"));
			FiberQueue<String> hold = fiber.queue(String.class);
			FiberProcess talker = fiber.process(() -> {
				System.out.println("first line");
				org.slf4j.LoggerFactory.getLogger("app").info("second line");
				hold.take().block();
			}).name("talker").start().block(LONG);
			// Both lines reach the parent's log while the child still runs, named after it and carrying its job id.
			org.awaitility.Awaitility.await().atMost(LONG)
					.until(() -> linesOf(seen).stream().anyMatch(e -> e.getFormattedMessage().contains("second line")));
			assertThat(talker.isAlive()).isTrue();
			assertThat(linesOf(seen)).anySatisfy(event -> {
				assertThat(event.getLoggerName()).isEqualTo("fiber.child.talker");
				assertThat(event.getFormattedMessage()).isEqualTo("first line");
				assertThat(event.getMDCPropertyMap()).containsEntry(io.fiberjvm.LogKeys.PROCESS, talker.jobId())
						.containsEntry(io.fiberjvm.LogKeys.RUN, fiber.runId());
			});
			hold.put("done").block(LONG);
			talker.join().block(LONG);
		}
		finally {
			children.detachAppender(seen);
		}
	}
}
