package io.fiberjvm.it;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.it.ManagerDeadlineTest.Env;
import io.fiberjvm.it.ManagerDeadlineTest.Sim;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.manager.Manager;
import io.fiberjvm.manager.ManagerLostException;
import io.fiberjvm.manager.ManagerRestartedException;
import io.fiberjvm.manager.ManagerRestarts;
import io.fiberjvm.manager.SharedMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A manager's restart policy over real manager JVMs, SIGKILLed mid-call. */
@Timeout(300)
class ManagerRestartTest {

	private static final Duration LONG = Duration.ofMinutes(2);

	private Fiber fiber;

	@BeforeAll
	static void timeouts() {
		StepVerifier.setDefaultTimeout(LONG);
	}

	@BeforeEach
	void open() {
		fiber = Fiber.open();
	}

	@AfterEach
	void close() {
		fiber.close();
	}

	private AsyncManager start(String name, ManagerRestarts restarts) {
		return AsyncManager.on(fiber).register(Env.class, Sim.class).name(name).restarts(restarts).start().block(LONG);
	}

	private static void kill(FiberProcess process) {
		ProcessHandle.of(process.pid().orElseThrow()).ifPresent(ProcessHandle::destroyForcibly);
	}

	@Test
	void aManagerKilledMidCallComesBackWithItsObjectsMadeAgain() {
		AsyncManager manager = start("comeback", ManagerRestarts.max(3).backoff(Duration.ofMillis(100)));
		Env env = manager.create(Env.class, 10);
		StepVerifier.create(env.step(1)).expectNext(11).verifyComplete();
		FiberProcess before = manager.process();
		Mono<Long> inFlight = env.sleep(60_000);
		kill(before);

		StepVerifier.create(inFlight)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ManagerRestartedException.class)
						.hasMessageContaining("manager comeback lost its process (")
						.hasMessageContaining("restart 1").hasMessageContaining("sleep on Env#1")
						.hasMessageContaining("state was reset"))
				.verify();
		// Made again from its constructor argument: the total starts over in the new process.
		StepVerifier.create(env.step(1)).expectNext(11).verifyComplete();
		assertThat(manager.process().pid()).isNotEqualTo(before.pid());
		assertThat(manager.isDisposed()).isFalse();
		assertThat(manager.stats().restarts()).isEqualTo(1);
		assertThat(manager.stats().pending()).isZero();
	}

	@Test
	void callsMadeWhileTheRestartWaitsItsBackoffRunInTheNewProcess() {
		AsyncManager manager = start("held", ManagerRestarts.max(3).backoff(Duration.ofSeconds(3)).jitter(0));
		Env env = manager.create(Env.class, 20);
		StepVerifier.create(env.step(1)).expectNext(21).verifyComplete();
		kill(manager.process());
		// Once the restart is decided, a call waits for the new process instead of failing.
		await().atMost(LONG).until(() -> manager.stats().restarts() == 1);
		Mono<Integer> held = env.step(2);
		Env created = manager.create(Env.class, 40);
		StepVerifier.create(held).expectNext(22).verifyComplete();
		StepVerifier.create(created.step(1)).expectNext(41).verifyComplete();
	}

	@Test
	void aManagerLostMoreOftenThanItsPolicyAllowsStaysLost() {
		AsyncManager manager = start("spent", ManagerRestarts.max(1).within(Duration.ofMinutes(5)).backoff(Duration.ZERO));
		Env env = manager.create(Env.class, 0);
		kill(manager.process());
		await().atMost(LONG).until(() -> manager.stats().restarts() == 1);
		StepVerifier.create(env.step(1)).expectNext(1).verifyComplete();

		kill(manager.process());
		StepVerifier.create(manager.onClose()).verifyComplete();
		StepVerifier.create(env.step(1))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ManagerLostException.class)
						.hasMessageContaining("its process ended")
						.hasMessageContaining("its restart policy allows 1 restart within PT5M"))
				.verify();
		assertThat(manager.isDisposed()).isTrue();
		assertThat(manager.stats().restarts()).isEqualTo(1);
	}

	@Test
	void aManagerClosedWhileItsRestartWaitsIsNotStartedAgain() {
		AsyncManager manager = start("closing", ManagerRestarts.max(3).backoff(Duration.ofSeconds(3)).jitter(0));
		Env env = manager.create(Env.class, 0);
		StepVerifier.create(env.step(1)).expectNext(1).verifyComplete();
		kill(manager.process());
		await().atMost(LONG).until(() -> manager.stats().restarts() == 1);
		Mono<Integer> waiting = env.step(1);

		StepVerifier.create(manager.closeAsync()).verifyComplete();
		StepVerifier.create(waiting)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ManagerLostException.class)
						.hasMessageContaining("it was closed"))
				.verify();
		assertThat(manager.isDisposed()).isTrue();
		// Past the backoff, no process of the manager was started again.
		await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10))
				.until(() -> fiber.liveProcesses().stream().noneMatch(process -> process.name().startsWith("closing")));
	}

	@Test
	void aManagerWhoseFirstProcessCannotStartFailsItsStartSayingWhyWhateverItsPolicy() {
		try (Fiber misconfigured = Fiber.builder().set("jvm-options", "-XX:+NoSuchOptionAnywhere").open()) {
			Mono<AsyncManager> start = AsyncManager.on(misconfigured).register(Env.class, Sim.class).name("unstartable")
					.restarts(ManagerRestarts.max(5).backoff(Duration.ZERO)).start();
			// Not restarted: a manager that never took a call is not yet a manager to bring back.
			StepVerifier.create(start)
					.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ManagerLostException.class)
							// Lost for its process's end, at once: not after a wait, nor restarted.
							.hasMessageContaining("manager unstartable was lost (its process ended").hasMessageContaining("before it took calls")
							.cause().hasMessageContaining("NoSuchOptionAnywhere"))
					.verify(Duration.ofSeconds(50));
		}
	}

	@Test
	void aManagerOfSharedObjectsComesBackEmptyAndHandlesTakenAgainWork() {
		Manager manager = Manager.on(fiber).name("shared").restarts(ManagerRestarts.max(2).backoff(Duration.ZERO)).start().block(LONG);
		SharedMap<String, Integer> before = manager.map("scores");
		StepVerifier.create(before.put("a", 1)).expectNextCount(0).verifyComplete();
		kill(manager.process());
		await().atMost(LONG).until(() -> manager.stats().restarts() == 1);
		// The new process serves its shared objects afresh: what the old one held is gone, as documented.
		await().atMost(LONG).untilAsserted(() -> StepVerifier.create(manager.<String, Integer>map("scores").size())
				.expectNext(0).verifyComplete());
		SharedMap<String, Integer> after = manager.map("scores");
		StepVerifier.create(after.put("b", 2).then(after.get("b"))).expectNext(2).verifyComplete();
		assertThat(manager.isDisposed()).isFalse();
	}

	@Test
	void aClosedManagerIsNotRestarted() {
		AsyncManager manager = start("closed", ManagerRestarts.max(3).backoff(Duration.ZERO));
		Env env = manager.create(Env.class, 0);
		StepVerifier.create(env.step(1)).expectNext(1).verifyComplete();
		StepVerifier.create(manager.closeAsync()).verifyComplete();
		StepVerifier.create(env.step(1)).expectError(ManagerLostException.class).verify();
		assertThat(manager.stats().restarts()).isZero();
	}
}
