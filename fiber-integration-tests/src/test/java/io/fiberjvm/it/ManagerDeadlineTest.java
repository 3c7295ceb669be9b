package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.RemoteException;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.manager.CallTimeoutException;
import io.fiberjvm.manager.ManagerLostException;
import io.fiberjvm.manager.ManagerRestartedException;
import io.fiberjvm.manager.ObjectStuckException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Manager call deadlines over real manager JVMs: a call past its deadline is interrupted, a call that will not stop
 * gives its object up, and a restart brings every object back in a fresh process.
 */
@Timeout(300)
class ManagerDeadlineTest {

	private static final Duration LONG = Duration.ofMinutes(2);

	private Fiber fiber;

	/** The async face of {@link Sim}. */
	public interface Env {
		Mono<Integer> step(int n);

		/** Sleeps for {@code millis} unless interrupted; answers how long it asked for. */
		Mono<Long> sleep(long millis);

		/** Sleeps for two minutes, and goes back to sleep when interrupted: a call that will not stop. */
		Mono<Long> hang();

		Flux<Integer> count(int n);

		/** Spins until interrupted, then returns with its interrupt still set. */
		Mono<Long> spin();

		/** {@code n} elements, each made {@code millis} after the one before. */
		Flux<Integer> slowly(int n, long millis);
	}

	/** A simulator whose state is a running total, started from its constructor's argument. */
	public static class Sim {
		private int total;

		public Sim(int start) {
			total = start;
		}

		/**
		 * Made slowly: {@code "hang"} sleeps ignoring interrupts, a creation that will not stop; {@code "sleep N"}
		 * sleeps N ms unless interrupted.
		 */
		public Sim(String how) throws InterruptedException {
			if (how.equals("hang")) {
				new Sim(0).hang();
			}
			else {
				SimulatedWork.awaitUnlessInterrupted(Long.parseLong(how.substring("sleep ".length())));
			}
		}

		public int step(int n) {
			total += n;
			return total;
		}

		public long sleep(long millis) throws InterruptedException {
			if (millis < 0) {
				throw new IllegalArgumentException("cannot sleep for " + millis + " ms");
			}
			SimulatedWork.awaitUnlessInterrupted(millis);
			return millis;
		}

		public long hang() {
			long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
			while (System.nanoTime() < end) {
				try {
					SimulatedWork.awaitUnlessInterrupted(Math.max(1, (end - System.nanoTime()) / 1_000_000));
				}
				catch (InterruptedException deaf) {
					// Deaf to interrupts, as a simulator stuck in native code would be.
				}
			}
			return 0;
		}

		public Flux<Integer> count(int n) {
			return Flux.range(1, n);
		}

		public long spin() {
			while (!Thread.currentThread().isInterrupted()) {
				Thread.onSpinWait();
			}
			return 1;
		}

		public Iterable<Integer> slowly(int n, long millis) {
			return () -> java.util.stream.IntStream.rangeClosed(1, n).peek(i -> SimulatedWork.pause(millis)).iterator();
		}
	}

	@BeforeAll
	static void timeouts() {
		StepVerifier.setDefaultTimeout(LONG);
	}

	@BeforeEach
	void open() {
		// A call that ignores its interrupt gives its object up one second after its deadline.
		fiber = Fiber.builder().set("task-timeout-grace", "1s").open();
	}

	@AfterEach
	void close() {
		fiber.close();
	}

	private AsyncManager start(String name, Duration timeout) {
		return AsyncManager.on(fiber).register(Env.class, Sim.class).name(name).callTimeout(timeout).start().block(LONG);
	}

	@Test
	void aCallPastItsDeadlineIsInterruptedAndItsObjectGoesOn() {
		AsyncManager manager = start("deadline", Duration.ofSeconds(1));
		Env env = manager.create(Env.class, 10);
		StepVerifier.create(env.sleep(60_000))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOfSatisfying(CallTimeoutException.class, timeout -> {
					assertThat(timeout.timeout()).isEqualTo(Duration.ofSeconds(1));
					assertThat(timeout.stuck()).isFalse();
					assertThat(timeout).hasMessageContaining("sleep on Env#1 in manager deadline")
							.hasMessageContaining("it was interrupted and stopped");
				}))
				.verify();
		// The interrupt went with its call: the next ones run, sleeping included.
		StepVerifier.create(env.step(1)).expectNext(11).verifyComplete();
		StepVerifier.create(env.sleep(10)).expectNext(10L).verifyComplete();
	}

	@Test
	void aCallWithinItsDeadlineAViewWithoutOneAndSequencesAreUntouched() {
		AsyncManager manager = start("within", Duration.ofSeconds(1));
		Env env = manager.create(Env.class, 0);
		StepVerifier.create(env.sleep(200)).expectNext(200L).verifyComplete();
		// A view without a deadline: its object's calls run as long as they take, past the manager's deadline.
		Env free = manager.callTimeout(Duration.ZERO).create(Env.class, 5);
		StepVerifier.create(free.sleep(1_500)).expectNext(1_500L).verifyComplete();
		// A sequence has no deadline: its elements come for as long as they take.
		StepVerifier.create(env.slowly(5, 400)).expectNext(1, 2, 3, 4, 5).verifyComplete();
	}

	@Test
	void anInterruptThatOutlivesItsCallDoesNotReachTheNextOne() {
		AsyncManager manager = start("interrupts", Duration.ofSeconds(1));
		Env env = manager.create(Env.class, 0);
		// Queued behind the spin, so the same thread of the manager runs it next.
		Mono<Long> spin = env.spin();
		Mono<Long> next = env.sleep(10);
		StepVerifier.create(spin)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOfSatisfying(CallTimeoutException.class,
						timeout -> assertThat(timeout.stuck()).isFalse()))
				.verify();
		StepVerifier.create(next).expectNext(10L).verifyComplete();
	}

	@Test
	void aCallThatWillNotStopGivesItsObjectUpAndTheOthersGoOn() {
		AsyncManager manager = start("stuck", Duration.ZERO);
		Env stuck = manager.callTimeout(Duration.ofSeconds(1)).create(Env.class, 0);
		Env other = manager.create(Env.class, 100);
		Mono<Long> hung = stuck.hang();
		// Sent behind the hung call: it waits for it, then fails with the object.
		Mono<Integer> queued = stuck.step(1);
		Flux<Integer> counting = stuck.count(3);
		StepVerifier.create(hung)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOfSatisfying(CallTimeoutException.class, timeout -> {
					assertThat(timeout.stuck()).isTrue();
					assertThat(timeout).hasMessageContaining("hang on Env#1").hasMessageContaining("given up as stuck");
				}))
				.verify();
		StepVerifier.create(queued).expectError(ObjectStuckException.class).verify();
		StepVerifier.create(counting).expectError(ObjectStuckException.class).verify();
		StepVerifier.create(stuck.step(1))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ObjectStuckException.class)
						.hasMessageContaining("step on Env#1").hasMessageContaining("restart()"))
				.verify();
		// The manager's other objects, and new ones, have threads of their own.
		StepVerifier.create(other.step(1)).expectNext(101).verifyComplete();
		StepVerifier.create(manager.create(Env.class, 7).step(1)).expectNext(8).verifyComplete();
		assertThat(manager.isDisposed()).isFalse();
	}

	@Test
	void aRestartMakesEveryObjectAgainFromItsConstructorArguments() {
		AsyncManager manager = start("restart", Duration.ZERO);
		Env stuck = manager.callTimeout(Duration.ofSeconds(1)).create(Env.class, 0);
		Env other = manager.create(Env.class, 100);
		StepVerifier.create(other.step(5)).expectNext(105).verifyComplete();
		StepVerifier.create(stuck.hang()).expectError(CallTimeoutException.class).verify();
		StepVerifier.create(stuck.step(1)).expectError(ObjectStuckException.class).verify();
		FiberProcess before = manager.process();
		Mono<Long> pending = other.sleep(60_000);
		StepVerifier.create(manager.restart()).verifyComplete();
		// Pending at the restart: failed, saying the state was reset.
		StepVerifier.create(pending)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ManagerRestartedException.class)
						.hasMessageContaining("sleep on Env#2").hasMessageContaining("state was reset"))
				.verify();
		assertThat(manager.process().pid()).isNotEqualTo(before.pid());
		StepVerifier.create(before.onExit()).expectNextCount(1).verifyComplete();
		// Made again from their arguments: the totals start over, and the stuck object takes calls.
		StepVerifier.create(stuck.step(1)).expectNext(1).verifyComplete();
		StepVerifier.create(other.step(1)).expectNext(101).verifyComplete();
		StepVerifier.create(stuck.count(2)).expectNext(1, 2).verifyComplete();
		assertThat(manager.stats().pending()).isZero();
	}

	@Test
	void callsMadeDuringARestartWaitForTheNewProcess() {
		AsyncManager manager = start("waiting", Duration.ZERO);
		Env env = manager.create(Env.class, 1);
		StepVerifier.create(env.step(1)).expectNext(2).verifyComplete();
		Mono<Void> restart = manager.restart().cache();
		restart.subscribe();
		// Made while the new process starts: they run there, in order, after the object is made again.
		Mono<List<Integer>> steps = Flux.concat(env.step(1), env.step(1), env.step(1)).collectList();
		Env created = manager.create(Env.class, 50);
		Mono<Integer> fresh = created.step(1);
		StepVerifier.create(steps).expectNext(List.of(2, 3, 4)).verifyComplete();
		StepVerifier.create(fresh).expectNext(51).verifyComplete();
		StepVerifier.create(restart).verifyComplete();
		// A second restart makes the object created during the first one again too.
		StepVerifier.create(manager.restart()).verifyComplete();
		StepVerifier.create(created.step(2)).expectNext(52).verifyComplete();
	}

	@Test
	void aSequenceAskedForDuringARestartComesFromTheNewProcess() {
		AsyncManager manager = start("sequence", Duration.ZERO);
		Env env = manager.create(Env.class, 1);
		Mono<Void> restart = manager.restart().cache();
		restart.subscribe();
		// Its demand, sent while no process takes calls, waits for the new one with the call.
		StepVerifier.create(env.count(3)).expectNext(1, 2, 3).verifyComplete();
		StepVerifier.create(restart).verifyComplete();
	}

	@Test
	void aRestartAskedForOnceAnotherCompletedIsANewOne() {
		AsyncManager manager = start("twice", Duration.ZERO);
		FiberProcess first = manager.process();
		FiberProcess second = manager.restart().then(Mono.fromCallable(manager::process))
				.flatMap(between -> manager.restart().thenReturn(between)).block(LONG);
		assertThat(second.pid()).isNotEqualTo(first.pid());
		assertThat(manager.process().pid()).isNotEqualTo(second.pid());
		StepVerifier.create(second.onExit()).expectNextCount(1).verifyComplete();
		StepVerifier.create(manager.create(Env.class, 2).step(1)).expectNext(3).verifyComplete();
	}

	@Test
	void aCreationThatWillNotStopGivesItsObjectUp() {
		AsyncManager manager = start("creation", Duration.ofSeconds(1));
		Env hung = manager.create(Env.class, "hang");
		StepVerifier.create(hung.step(1)).expectError(ObjectStuckException.class).verify();
		StepVerifier.create(manager.create(Env.class, 3).step(1)).expectNext(4).verifyComplete();
	}

	@Test
	void aCreationPastItsDeadlineThatStopsFailsTheObjectsCallsSayingSo() {
		AsyncManager manager = start("slow-creation", Duration.ofSeconds(1));
		Env slow = manager.create(Env.class, "sleep 60000");
		StepVerifier.create(slow.step(1))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(RemoteException.class)
						.hasMessageContaining("the object was not created: its creation ran past its deadline of PT1S and was interrupted"))
				.verify();
	}

	@Test
	void aClosedManagerCannotBeRestarted() {
		AsyncManager manager = start("closed", Duration.ZERO);
		Env env = manager.create(Env.class, 1);
		manager.close();
		StepVerifier.create(manager.restart())
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(ManagerLostException.class)
						.hasMessageContaining("it was closed").hasMessageContaining("cannot be started again"))
				.verify();
		StepVerifier.create(env.step(1)).expectError(ManagerLostException.class).verify();
	}

	@Test
	void badDeadlinesAreRefusedAtTheCaller() {
		AsyncManager manager = start("refusing", Duration.ZERO);
		assertThatThrownBy(() -> manager.callTimeout(Duration.ofSeconds(-1)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a call timeout of PT-1S is negative")
				.hasMessageContaining("Duration.ZERO for none");
		assertThatThrownBy(() -> manager.callTimeout(Duration.ofSeconds(Long.MAX_VALUE)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than a JVM can time");
		assertThatThrownBy(() -> manager.callTimeout(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("timeout");
		assertThatThrownBy(() -> AsyncManager.on(fiber).callTimeout(Duration.ofMillis(-5)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
		// An error of the object's own stays its own, deadline or not.
		Env env = manager.callTimeout(Duration.ofSeconds(30)).create(Env.class, 0);
		StepVerifier.create(env.sleep(-1)).expectError(RemoteException.class).verify();
	}
}
