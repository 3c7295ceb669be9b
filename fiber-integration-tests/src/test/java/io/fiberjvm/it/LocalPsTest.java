package io.fiberjvm.it;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.k8s.cli.FiberCli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code fiber ps --local} against a live local run: its master, a process, a pool and the pool's workers. */
class LocalPsTest {

	private static final Duration LONG = Duration.ofMinutes(2);

	private static String ps(String... args) {
		StringWriter out = new StringWriter();
		StringWriter err = new StringWriter();
		int code = FiberCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
		assertThat(code).as("exit code; stderr: %s", err).isZero();
		return out.toString();
	}

	@Test
	void listsALiveRunsProcessesPoolsAndWorkersThenForgetsTheRunWhenItCloses(@TempDir Path runs) {
		String runId;
		try (Fiber fiber = Fiber.builder().set("runs-dir", runs.toString()).open()) {
			runId = fiber.runId();
			FiberQueue<String> hold = fiber.queue(String.class);
			// A process that runs until told to stop, and a pool of two workers in one JVM.
			FiberProcess waiting = fiber.process(() -> hold.take().block()).name("waiter").start().block(LONG);
			waiting.onRunning().block(LONG);
			FiberPool pool = fiber.pool(2).name("crunch").workersPerProcess(2).open();
			await().atMost(LONG).until(() -> pool.stats().workers() == 2);
			// And an autoscaling pool, shown with its bounds.
			fiber.pool(1, 3).name("elastic").open();

			await().atMost(LONG).untilAsserted(() -> {
				List<String> lines = ps("ps", "--local", "--runs-dir", runs.toString()).lines().toList();
				assertThat(lines.get(0)).startsWith("RUN").contains("KIND", "NAME", "STATE", "PID");
				assertThat(lines).anyMatch(l -> l.startsWith(runId) && l.contains("master") && l.contains(Long.toString(ProcessHandle.current().pid())));
				assertThat(lines).anyMatch(l -> l.contains("process") && l.contains("waiter") && l.contains("running")
						&& l.contains(Long.toString(waiting.pid().orElseThrow())));
				assertThat(lines).anyMatch(l -> l.contains("pool") && l.contains("crunch") && l.contains("2 of 2 working")
						&& !l.contains("scaling"));
				assertThat(lines).anyMatch(l -> l.contains("pool") && l.contains("elastic") && l.contains("1 of 1 working")
						&& l.contains("scaling between 1 and 3"));
				long jvm = pool.workers().get(0).pid().orElseThrow();
				assertThat(lines).filteredOn(l -> l.contains(" worker ") && l.contains("working") && l.contains(Long.toString(jvm)))
						.hasSize(2);
			});
			// Only the run asked for.
			assertThat(ps("ps", "--local", "--runs-dir", runs.toString(), "--run", "nosuchrun")).contains("no Fiber runs");
			hold.put("stop").block(LONG);
			waiting.join().block(LONG);
		}
		// Closed: its status file is gone, and ps says there is nothing.
		assertThat(runs.resolve(runId + ".json")).doesNotExist();
		assertThat(ps("ps", "--local", "--runs-dir", runs.toString())).contains("no Fiber runs on this machine");
	}

	@Test
	void aRunWhoseMasterDiedIsNotListedAndItsFileIsRemoved(@TempDir Path runs) throws Exception {
		Path stale = runs.resolve("deadrun.json");
		// A pid that is not alive: the largest a Linux kernel hands out, plus one.
		Files.writeString(stale, "{\"run\":\"deadrun\",\"pid\":4194305,\"backend\":\"local\",\"started\":\"2026-01-01T00:00:00Z\","
				+ "\"updated\":\"2026-01-01T00:00:01Z\",\"processes\":[],\"pools\":[]}");
		assertThat(ps("ps", "--local", "--runs-dir", runs.toString())).contains("no Fiber runs");
		assertThat(stale).doesNotExist();
	}
}
