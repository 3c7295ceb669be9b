package io.fiberjvm.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.RemoteException;
import io.fiberjvm.manager.AsyncManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A manager runs calls of quick methods on idle objects straight on its connection's thread, keeping each
 * object's calls in order; a method that blocks there is moved back to the object's threads; the key
 * {@code manager-direct-calls=false} keeps every call on them.
 */
@Timeout(180)
class ManagerDirectCallsTest {

	private static final Duration LONG = Duration.ofSeconds(120);
	/** Far more calls than a method needs to earn trust, so a loaded machine's slow runs cannot starve it. */
	private static final int CALLS = 2_000;

	/** The async face of {@link Here}. */
	public interface Where {
		Mono<String> thread();

		Mono<String> waitIf(boolean block);

		Mono<Integer> next();

		Mono<String> waitWrapped(boolean block);

		Mono<String> sized(byte[] data);
	}

	/** Says where its calls run; counts them. */
	public static class Here {
		private int count;

		public String thread() {
			return Thread.currentThread().getName();
		}

		/** Blocks through Reactor when asked, which a thread that must not block refuses. */
		public String waitIf(boolean block) {
			if (block) {
				Mono.delay(Duration.ofMillis(1)).block();
			}
			return Thread.currentThread().getName();
		}

		public int next() {
			return ++count;
		}

		/** As {@link #waitIf}, the refusal wrapped in an exception of the method's own. */
		public String waitWrapped(boolean block) {
			try {
				return waitIf(block);
			}
			catch (IllegalStateException e) {
				throw new IllegalArgumentException("could not wait", e);
			}
		}

		public String sized(byte[] data) {
			return Thread.currentThread().getName();
		}
	}

	private static AsyncManager start(Fiber fiber) {
		return AsyncManager.on(fiber).register(Where.class, Here.class).name("direct").start().block(LONG);
	}

	private static boolean onObjectThread(String thread) {
		return thread.startsWith("fiber-manager-object");
	}

	/** Makes calls one at a time until one answers from the connection's thread; the threads they answered from. */
	private static List<String> untilDirect(Supplier<Mono<String>> call) {
		List<String> threads = new ArrayList<>();
		for (int i = 0; i < CALLS; i++) {
			String thread = call.get().block(LONG);
			threads.add(thread);
			if (!onObjectThread(thread)) {
				break;
			}
		}
		return threads;
	}

	@Test
	void aQuickMethodRunsOnTheConnectionThreadOnceTrusted() {
		try (Fiber fiber = Fiber.open()) {
			Where where = start(fiber).create(Where.class);
			List<String> threads = untilDirect(where::thread);
			// Trust is earned on the object's threads first.
			assertThat(threads.subList(0, 16)).allMatch(ManagerDirectCallsTest::onObjectThread);
			assertThat(threads.get(threads.size() - 1)).as("after %d calls", threads.size()).startsWith("reactor-");
		}
	}

	@Test
	void callsIssuedTogetherKeepTheirOrderWhetherDirectOrNot() {
		try (Fiber fiber = Fiber.open()) {
			Where where = start(fiber).create(Where.class);
			untilDirect(where::thread);
			// Many at once: some find the object busy and queue on its thread, behind the ones that run directly.
			List<Integer> counts = Flux.range(0, CALLS).flatMapSequential(i -> where.next(), 64).collectList().block(LONG);
			assertThat(counts).hasSize(CALLS);
			for (int i = 0; i < CALLS; i++) {
				assertThat(counts.get(i)).as("call %d", i).isEqualTo(i + 1);
			}
		}
	}

	/**
	 * Earns {@code method} trust, then calls it blocking until a call is refused there (a slow run on a busy
	 * machine can cost the trust in between: the call then blocks on an object's thread and succeeds); the error.
	 */
	private static Throwable refusedWhenDirect(Function<Boolean, Mono<String>> method) {
		for (int attempt = 0; attempt < 20; attempt++) {
			List<String> threads = untilDirect(() -> method.apply(false));
			assertThat(threads.get(threads.size() - 1)).startsWith("reactor-");
			try {
				assertThat(method.apply(true).block(LONG)).startsWith("fiber-manager-object");
			}
			catch (RuntimeException e) {
				return e;
			}
		}
		throw new AssertionError("no blocking call ran on the connection's thread in 20 attempts");
	}

	@Test
	void aTrustedMethodThatBlocksFailsThatCallClearlyAndRunsOnTheObjectsThreadsFromThenOn() {
		try (Fiber fiber = Fiber.open()) {
			Where where = start(fiber).create(Where.class);
			assertThat(refusedWhenDirect(where::waitIf)).isInstanceOf(RemoteException.class)
					.hasMessageContaining("waitIf blocked on the manager's connection thread")
					.hasMessageContaining("manager-direct-calls=false");
			assertThat(where.waitIf(true).block(LONG)).startsWith("fiber-manager-object");
			for (int i = 0; i < 100; i++) {
				assertThat(where.waitIf(false).block(LONG)).as("call %d after the refusal", i).startsWith("fiber-manager-object");
			}
			// A refusal the method wraps in its own exception is seen all the same.
			assertThat(refusedWhenDirect(where::waitWrapped)).isInstanceOf(RemoteException.class)
					.hasMessageContaining("waitWrapped blocked on the manager's connection thread");
			for (int i = 0; i < 100; i++) {
				assertThat(where.waitWrapped(false).block(LONG)).as("call %d after the refusal", i).startsWith("fiber-manager-object");
			}
		}
	}

	@Test
	void aCallWithLargeArgumentsRunsOnTheObjectsThreadsEvenForATrustedMethod() {
		try (Fiber fiber = Fiber.open()) {
			Where where = start(fiber).create(Where.class);
			List<String> threads = untilDirect(() -> where.sized(new byte[16]));
			assertThat(threads.get(threads.size() - 1)).startsWith("reactor-");
			assertThat(where.sized(new byte[256 * 1024]).block(LONG)).startsWith("fiber-manager-object");
		}
	}

	@Test
	void directCallsOffRunsEveryCallOnTheObjectsThreads() {
		try (Fiber fiber = Fiber.builder().set("manager-direct-calls", "false").open()) {
			Where where = start(fiber).create(Where.class);
			for (int i = 0; i < 200; i++) {
				assertThat(where.thread().block(LONG)).as("call %d", i).startsWith("fiber-manager-object");
			}
		}
	}
}
