package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberException;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.RemoteException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Job-backed processes on the local backend: real child JVMs connected back over RSocket. */
class FiberProcessTest {

	private static final Duration LONG = Duration.ofSeconds(60);

	private Fiber fiber;

	@BeforeEach
	void open() {
		fiber = Fiber.builder().set("local-gpus", "3,5").set("keepalive-timeout", "7s").open();
	}

	@AfterEach
	void close() {
		fiber.close();
	}

	private FiberProcess start(io.fiberjvm.ProcessCall call) {
		return call.start().block(LONG);
	}

	@Test
	void lambdaRunsInAChildJvmAndEndsWithExitCodeZero() {
		long parentPid = ProcessHandle.current().pid();
		String greeting = "hello from the child";
		FiberProcess p = start(fiber.process(() -> System.out.println(greeting + " pid=" + ProcessHandle.current().pid()))
				.name("Hello World"));
		assertThat(p.name()).isEqualTo("Hello World");
		assertThat(p.jobId()).startsWith("hello-world-" + fiber.runId());
		StepVerifier.create(p.join()).expectComplete().verify(LONG);
		StepVerifier.create(p.onExit()).expectNext(0).verifyComplete();
		assertThat(p.isAlive()).isFalse();
		List<String> lines = p.logs().collectList().block(LONG);
		assertThat(lines).anyMatch(l -> l.startsWith(greeting));
		assertThat(lines).noneMatch(l -> l.endsWith("pid=" + parentPid));
		assertThat(p.pid()).isPresent();
	}

	@Test
	void classTargetGetsItsAnnotatedResources() {
		FiberProcess p = start(fiber.process(Targets.Sized.class));
		assertThat(p.resources()).isEqualTo(new ResourceSpec(1, 256L << 20, 0));
		StepVerifier.create(p.join()).expectComplete().verify(LONG);
		// The backend hands out GPUs 3 and 5, so a job that asked for none is shown none.
		List<String> lines = p.logs().collectList().block(LONG);
		assertThat(lines).contains("processors=1", "gpus=");
		// Its heap is sized from the 256 MiB it declared: about three quarters, where the JVM alone would take a quarter.
		assertThat(lines).filteredOn(line -> line.startsWith("heapMiB=")).singleElement()
				.satisfies(line -> assertThat(Integer.parseInt(line.substring("heapMiB=".length()))).isBetween(160, 192));
	}

	@Test
	void gpusAreHandedOutThroughCudaVisibleDevicesOneJobEach() {
		FiberProcess a = start(fiber.process(Targets.Sleeper.class).gpu(1));
		FiberProcess b = start(fiber.process(Targets.Sized.class).gpu(1));
		StepVerifier.create(b.join()).expectComplete().verify(LONG);
		List<String> lines = b.logs().collectList().block(LONG);
		assertThat(lines).containsAnyOf("gpus=3", "gpus=5");
		// Both GPUs are taken while a and b run; a third asks in vain, with a clear error.
		FiberProcess c = start(fiber.process(Targets.Sized.class).gpu(1)); // b's GPU is free again
		StepVerifier.create(c.join()).expectComplete().verify(LONG);
		StepVerifier.create(fiber.process(Targets.Sized.class).gpu(2).start())
				.expectErrorMatches(e -> e instanceof FiberException && e.getMessage().contains("fiber.local-gpus"))
				.verify(LONG);
		StepVerifier.create(a.terminate()).expectComplete().verify(LONG);
	}

	@Test
	void throwingTargetFailsJoinWithTheRemoteStackTrace() {
		FiberProcess p = start(fiber.process(() -> {
			throw new IllegalStateException("the simulator diverged");
		}).name("thrower"));
		StepVerifier.create(p.join())
				.expectErrorSatisfies(e -> {
					assertThat(e).isInstanceOf(ProcessFailedException.class);
					ProcessFailedException failed = (ProcessFailedException) e;
					assertThat(failed.exitCode()).isEqualTo(1);
					assertThat(failed.processName()).isEqualTo("thrower");
					assertThat(e.getMessage()).contains("thrower").contains("the simulator diverged");
					RemoteException remote = (RemoteException) e.getCause();
					assertThat(remote.remoteType()).isEqualTo(IllegalStateException.class.getName());
					assertThat(remote.getStackTrace()).anyMatch(f -> f.getClassName().startsWith(FiberProcessTest.class.getName()));
				})
				.verify(LONG);
		StepVerifier.create(p.onExit()).expectNext(1).verifyComplete();
	}

	@Test
	void exitCodeOfATargetThatExitsIsReported() {
		FiberProcess p = start(fiber.process(() -> {
			System.out.println("about to exit");
			System.exit(3);
		}));
		StepVerifier.create(p.onExit()).expectNext(3).verifyComplete();
		StepVerifier.create(p.join())
				.expectErrorMatches(e -> e instanceof ProcessFailedException && e.getMessage().contains("exited with code 3")
						&& e.getMessage().contains("about to exit"))
				.verify(LONG);
	}

	@Test
	void terminateStopsARunningProcess() {
		FiberProcess p = start(fiber.process(Targets.Sleeper.class));
		StepVerifier.create(p.onRunning()).expectComplete().verify(LONG);
		assertThat(p.isAlive()).isTrue();
		StepVerifier.create(p.terminate()).expectComplete().verify(LONG);
		assertThat(p.isAlive()).isFalse();
		assertThat(p.onExit().block(LONG)).isNotZero();
	}

	@Test
	void childrenReceiveTheParentsConfiguration() {
		FiberProcess p = start(fiber.process(() -> {
			FiberConfig seen = FiberConfig.resolve(Map.of(), System.getProperties(), System.getenv(), null);
			if (!seen.get(ConfigKeys.KEEPALIVE_TIMEOUT).equals(Duration.ofSeconds(7))) {
				throw new AssertionError("keepalive-timeout in the child is " + seen.get(ConfigKeys.KEEPALIVE_TIMEOUT));
			}
			if (!seen.get(ConfigKeys.LOCAL_GPUS).equals(List.of("3", "5"))) {
				throw new AssertionError("local-gpus in the child is " + seen.get(ConfigKeys.LOCAL_GPUS));
			}
		}));
		StepVerifier.create(p.join()).expectComplete().verify(LONG);
	}

	@Test
	void capturedClassOutsideTheAllowListIsRefusedBeforeAnyJobStarts() {
		AtomicInteger counter = new AtomicInteger(41);
		StepVerifier.create(fiber.process(() -> System.out.println("counter " + counter.incrementAndGet())).start())
				.expectErrorSatisfies(e -> {
					assertThat(e).isInstanceOf(CodecException.class);
					assertThat(e.getMessage()).contains("java.util.concurrent.atomic.AtomicInteger").contains("fiber.serial-allow");
				})
				.verify(LONG);
		assertThat(fiber.liveProcesses()).isEmpty();

		try (Fiber allowing = Fiber.builder().set("serial-allow", "java.util.concurrent.atomic.*").open()) {
			FiberProcess ok = allowing.process(() -> System.out.println("counter " + counter.incrementAndGet())).start().block(LONG);
			StepVerifier.create(ok.join()).expectComplete().verify(LONG);
			assertThat(ok.logs().collectList().block(LONG)).contains("counter 42");
		}
	}

	@Test
	void targetThatCannotBeShippedFailsBeforeAnyJobStarts() {
		Object notSerializable = new Object();
		StepVerifier.create(fiber.process(() -> System.out.println(notSerializable)).start())
				.expectErrorMatches(e -> e instanceof CodecException && e.getMessage().contains("java.lang.Object")
						&& e.getMessage().contains("not Serializable"))
				.verify(LONG);
		assertThat(fiber.liveProcesses()).isEmpty();
	}

	@Test
	void aChildOverItsDeclaredMemoryIsReportedKilledForMemoryWithItsLimit() {
		FiberProcess p = start(fiber.process(() -> {
			List<long[]> held = new java.util.ArrayList<>();
			while (true) {
				held.add(new long[1 << 20]);
			}
		}).name("hoarder").memory("128Mi"));
		StepVerifier.create(p.join())
				.expectErrorSatisfies(e -> {
					assertThat(e).isInstanceOf(ProcessFailedException.class)
							.hasMessageContaining("was killed for memory at its limit of 128Mi")
							.hasMessageContaining("OutOfMemoryError: Java heap space");
					assertThat(((ProcessFailedException) e).killedForMemory()).isTrue();
				})
				.verify(LONG);
		// A process that fails otherwise was not.
		FiberProcess thrower = start(fiber.process(() -> {
			throw new IllegalStateException("not memory");
		}).name("thrower").memory("128Mi"));
		StepVerifier.create(thrower.join())
				.expectErrorSatisfies(e -> assertThat(((ProcessFailedException) e).killedForMemory()).isFalse())
				.verify(LONG);
	}

	@Test
	void childThatCannotStartReportsItsOutput() {
		try (Fiber broken = Fiber.builder().set("jvm-options", "-Xmx1k").open()) {
			FiberProcess p = broken.process(Targets.Sized.class).start().block(LONG);
			StepVerifier.create(p.onRunning())
					.expectErrorSatisfies(e -> assertThat(e.getMessage()).contains("before it connected back").containsIgnoringCase("heap"))
					.verify(LONG);
			StepVerifier.create(p.join()).expectError(ProcessFailedException.class).verify(LONG);
		}
	}

	@Test
	void manyProcessesRunAtOnce() {
		List<FiberProcess> all = Flux.range(0, 4)
				.flatMap(i -> fiber.process(() -> System.out.println("worker " + i)).name("worker-" + i).start())
				.collectList()
				.block(LONG);
		StepVerifier.create(Flux.fromIterable(all).flatMap(FiberProcess::join)).expectComplete().verify(LONG);
		assertThat(Flux.fromIterable(all).flatMap(FiberProcess::logs).collectList().block(LONG))
				.contains("worker 0", "worker 1", "worker 2", "worker 3");
	}

	@Test
	void cancellingAStartLeavesNoChildBehind() {
		reactor.core.Disposable start = fiber.process(Targets.Sleeper.class).start().subscribe();
		start.dispose();
		await().atMost(LONG).until(() -> fiber.liveProcesses().isEmpty());
		await().atMost(LONG).until(() -> ProcessHandle.current().children()
				.noneMatch(child -> child.info().arguments().map(a -> String.join(" ", a).contains("WorkerMain")).orElse(false)));
	}

	@Test
	void closeOnANonBlockingThreadIsRefusedClearlyAndTheFiberStaysUsable() {
		StepVerifier.create(reactor.core.publisher.Mono.delay(Duration.ofMillis(1)).doOnNext(tick -> fiber.close()))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
						.hasMessageContaining("non-blocking thread"))
				.verify(LONG);
		FiberProcess p = start(fiber.process(Targets.Sized.class));
		StepVerifier.create(p.join()).expectComplete().verify(LONG);
		fiber.close();
		StepVerifier.create(fiber.address()).expectErrorMatches(e -> e.getMessage().contains("closed")).verify(LONG);
		StepVerifier.create(fiber.onClose()).expectComplete().verify(LONG);
	}

	@Test
	void closingTheFiberTerminatesItsProcessesAndRefusesNewOnes() {
		FiberProcess p = start(fiber.process(Targets.Sleeper.class));
		StepVerifier.create(p.onRunning()).expectComplete().verify(LONG);
		fiber.close();
		await().atMost(LONG).until(() -> !p.isAlive());
		assertThatThrownBy(() -> fiber.process(Targets.Sized.class).start().block(LONG))
				.isInstanceOf(FiberException.class).hasMessageContaining("closed");
	}
}
