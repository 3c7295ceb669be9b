package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.LogKeys;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.queue.FiberQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A job-backed process names itself in its log lines (LogKeys): this module's Logback pattern prints
 * {@code [<process> <worker or rank>]} from the MDC, and a child's output reaches {@code logs()}.
 */
class LogIdentityTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofMinutes(2);

	@Test
	void aProcessTargetsLogLinesCarryItsJobId() {
		FiberProcess process = fiber.process(() -> LoggerFactory.getLogger("app").info("hello from the target"))
				.name("talker").start().block(LONG);
		process.join().block(LONG);
		List<String> lines = process.logs().collectList().block(LONG);
		assertThat(lines).anyMatch(line -> line.contains("[" + process.jobId() + " ] app - hello from the target"));
		assertThat(process.jobId()).startsWith("talker-").contains(fiber.runId());
	}

	@Test
	void aPoolTasksLogLinesCarryItsProcessAndWorker() {
		FiberPool pool = fiber.pool(2).name("ids").workersPerProcess(2).open();
		await().atMost(LONG).until(() -> pool.stats().workers() == 2);
		List<String> workers = pool.map((FiberFunction<Integer, String>) x -> {
			LoggerFactory.getLogger("task").info("task {} ran", x);
			return MDC.get(LogKeys.WORKER);
		}, Flux.range(0, 40)).collectList().block(LONG);
		assertThat(workers).containsOnly("ids-w1", "ids-w2").contains("ids-w1", "ids-w2");
		FiberProcess jvm = pool.workers().get(0);
		await().atMost(LONG).untilAsserted(() -> assertThat(jvm.logs().collectList().block(LONG))
				.anyMatch(line -> line.contains("[" + jvm.jobId() + " ids-w1] task - task "))
				.anyMatch(line -> line.contains("[" + jvm.jobId() + " ids-w2] task - task ")));
	}

	@Test
	void aChildCanStillResolveConfigurationWithItsIdentityPropertiesSet() {
		FiberProcess child = fiber.process(() -> {
			if (System.getProperty(LogKeys.PROCESS) == null) {
				throw new IllegalStateException("no identity");
			}
			Fiber.builder().config();
		}).name("resolver").start().block(LONG);
		child.join().block(LONG);
	}

	@Test
	void aBadChildLogsValueIsRefusedNamingTheKey() {
		assertThatThrownBy(() -> Fiber.builder().set("child-logs", "both").open())
				.hasMessageContaining("child-logs").hasMessageContaining("'both' is not file or parent");
	}

	@Test
	void aRingMemberKnowsItsRankAndProcessInItsMdc() {
		FiberQueue<String> seen = fiber.queue(String.class);
		fiber.ring(2).name("ranks").run(ring -> seen.put(MDC.get(LogKeys.RANK) + " " + MDC.get(LogKeys.PROCESS) + " "
				+ MDC.get(LogKeys.RUN)).block()).block(LONG);
		List<String> identities = seen.receive().take(2).collectList().block(LONG);
		assertThat(identities).hasSize(2).anyMatch(id -> id.startsWith("0 ranks-")).anyMatch(id -> id.startsWith("1 ranks-"))
				.allMatch(id -> id.endsWith(" " + fiber.runId()));
	}
}
