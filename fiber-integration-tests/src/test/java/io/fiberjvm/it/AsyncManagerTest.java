package io.fiberjvm.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.RemoteException;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.manager.ManagerLostException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** AsyncManager proxies over real manager JVMs. */
class AsyncManagerTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(120);

	/** The async face of {@link Tally}. */
	public interface Counter {
		Mono<Integer> add(int n);

		Mono<List<Integer>> history();

		Flux<Integer> each();

		Mono<long[]> hold(long millis);

		Mono<Void> fail(String why);

		Mono<Integer> length(double[] data);

		Mono<Integer> hoard();

		/** The interface's own code, run where the proxy is. */
		default Mono<Integer> addTwice(int n) {
			return add(n).then(add(n));
		}
	}

	/** A counter that remembers what was added, in order. */
	public static class Tally {
		private final List<Integer> added = new ArrayList<>();
		private int total;

		public Tally() {
		}

		public Tally(int start) {
			total = start;
		}

		public int add(int n) {
			added.add(n);
			total += n;
			return total;
		}

		public List<Integer> history() {
			return added;
		}

		public int[] each() {
			return added.stream().mapToInt(i -> i).toArray();
		}

		/** Sleeps, then says when it started and ended (System.nanoTime is one clock for the whole machine). */
		public long[] hold(long millis) {
			long start = System.nanoTime();
			SimulatedWork.pause(millis);
			return new long[] {start, System.nanoTime()};
		}

		public void fail(String why) {
			throw new IllegalStateException(why);
		}

		public int length(double[] data) {
			return data.length;
		}

		/** Takes memory until there is none. */
		public int hoard() {
			List<long[]> held = new ArrayList<>();
			while (true) {
				held.add(new long[1 << 20]);
			}
		}
	}

	/** An interface one of whose methods does not return a Mono or a Flux. */
	public interface Blocking {
		Integer add(int n);
	}

	/** An interface the implementation does not match. */
	public interface Mismatched {
		Mono<Integer> subtract(int n);
	}

	@BeforeAll
	static void timeouts() {
		StepVerifier.setDefaultTimeout(LONG);
	}

	private AsyncManager start(String name) {
		return AsyncManager.on(fiber).register(Counter.class, Tally.class).name(name).start().block(LONG);
	}

	@Test
	void proxyCallsReturnMonosAndFluxes() {
		AsyncManager manager = start("calls");
		Counter counter = manager.create(Counter.class, 10);
		StepVerifier.create(counter.add(1)).expectNext(11).verifyComplete();
		StepVerifier.create(counter.add(2)).expectNext(13).verifyComplete();
		StepVerifier.create(counter.history()).expectNext(List.of(1, 2)).verifyComplete();
		StepVerifier.create(counter.each()).expectNext(1, 2).verifyComplete();
		assertThat(counter.toString()).contains("Counter#").contains("calls");
	}

	@Test
	void aFactoryMakesTheObjectsFromCreatesArguments() {
		AsyncManager manager = AsyncManager.on(fiber)
				.register(Counter.class, Tally.class, args -> new Tally(((String) args[0]).length()))
				.name("factory").start().block(LONG);
		Counter counter = manager.create(Counter.class, "four");
		StepVerifier.create(counter.add(1)).expectNext(5).verifyComplete();
	}

	@Test
	void defaultMethodsRunLocallyOverRemoteCalls() {
		Counter counter = start("defaults").create(Counter.class);
		StepVerifier.create(counter.addTwice(5)).expectNext(10).verifyComplete();
	}

	@Test
	void argumentsThatCannotTravelAreRefusedNamingThemAndTheManagerGoesOn() {
		AsyncManager manager = start("sizes");
		Counter counter = manager.create(Counter.class);
		// 2 million doubles are 16 MB: more than the default 8 MiB frame, so they travel in fragments.
		StepVerifier.create(counter.length(new double[2_000_000])).expectNext(2_000_000).verifyComplete();
		StepVerifier.create(counter.length(new double[1000])).expectNext(1000).verifyComplete();
		assertThatThrownBy(() -> manager.create(Counter.class, new Object()))
				.isInstanceOf(io.fiberjvm.codec.CodecException.class).hasMessageContaining("not Serializable");
	}

	@Test
	void callsOnOneObjectRunOneAtATimeInCallOrder() {
		Counter counter = start("order").create(Counter.class);
		// Sent as fast as they are made, before any is answered.
		List<Mono<Integer>> calls = IntStream.range(1, 301).mapToObj(counter::add).toList();
		List<Integer> totals = Flux.concat(calls).collectList().block(LONG);
		List<Integer> expected = new ArrayList<>();
		int sum = 0;
		for (int i = 1; i <= 300; i++) {
			sum += i;
			expected.add(sum);
		}
		assertThat(totals).isEqualTo(expected);
		assertThat(counter.history().block(LONG)).isEqualTo(IntStream.range(1, 301).boxed().toList());
	}

	@Test
	void callsOnObjectsInDifferentManagersRunInParallel() {
		List<AsyncManager> managers = Flux.range(0, 4)
				.flatMap(i -> AsyncManager.on(fiber).register(Counter.class, Tally.class).name("parallel-" + i).start())
				.collectList().block(LONG);
		List<Counter> counters = managers.stream().map(m -> m.create(Counter.class)).toList();
		counters.forEach(c -> c.add(0).block(LONG));
		List<long[]> stamps = Flux.fromIterable(counters).flatMap(c -> c.hold(1000)).collectList().block(LONG);
		long lastStart = stamps.stream().mapToLong(s -> s[0]).max().orElseThrow();
		long firstEnd = stamps.stream().mapToLong(s -> s[1]).min().orElseThrow();
		// Every call started before any ended: all four overlapped.
		assertThat(lastStart).isLessThan(firstEnd);
	}

	@Test
	void anExceptionArrivesWithItsRemoteTypeMessageAndTrace() {
		Counter counter = start("errors").create(Counter.class);
		StepVerifier.create(counter.fail("on purpose"))
				.expectErrorSatisfies(e -> {
					assertThat(e).isInstanceOf(RemoteException.class);
					RemoteException remote = (RemoteException) e;
					assertThat(remote.remoteType()).isEqualTo(IllegalStateException.class.getName());
					assertThat(remote.remoteMessage()).isEqualTo("on purpose");
					assertThat(remote.getStackTrace()).anySatisfy(frame -> assertThat(frame.getMethodName()).isEqualTo("fail"));
				})
				.verify(LONG);
		StepVerifier.create(counter.add(1)).expectNext(1).verifyComplete();
	}

	@Test
	void aConstructorThatDoesNotMatchFailsEveryCallOnTheObject() {
		Counter counter = start("constructor").create(Counter.class, "not a number");
		StepVerifier.create(counter.add(1))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("not created").hasMessageContaining("no public constructor"))
				.verify(LONG);
	}

	@Test
	void aManagerKilledForMemorySaysSoWithItsLimit() {
		AsyncManager manager = AsyncManager.on(fiber).register(Counter.class, Tally.class).name("greedy").memory("128Mi").start()
				.block(LONG);
		Counter counter = manager.create(Counter.class);
		StepVerifier.create(counter.hoard())
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ManagerLostException.class)
						.hasMessageContaining("greedy").hasMessageContaining("killed for memory at its limit of 128Mi")
						.hasMessageContaining("OutOfMemoryError"))
				.verify(LONG);
		manager.onClose().block(LONG);
	}

	@Test
	void aManagerThatDiesFailsItsPendingAndLaterCalls() {
		AsyncManager manager = start("doomed");
		Counter counter = manager.create(Counter.class);
		counter.add(1).block(LONG);
		Mono<long[]> pending = counter.hold(60_000);
		long pid = manager.process().pid().orElseThrow();
		ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
		StepVerifier.create(pending)
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ManagerLostException.class)
						.hasMessageContaining("doomed").hasMessageContaining("hold"))
				.verify(LONG);
		StepVerifier.create(counter.add(1)).expectError(ManagerLostException.class).verify(LONG);
		manager.onClose().block(LONG);
	}

	@Test
	void aManagerWhoseJvmCannotStartFailsItsStartWithWhatTheJvmSaid() {
		Fiber misconfigured = Fiber.builder().set("jvm-options", "-XX:+NoSuchOptionAnywhere").open();
		try {
			StepVerifier.create(AsyncManager.on(misconfigured).register(Counter.class, Tally.class).name("unstartable").start())
					.expectErrorSatisfies(e -> {
						assertThat(e).isInstanceOf(ManagerLostException.class).hasMessageContaining("unstartable");
						assertThat(e.getCause()).isInstanceOf(ProcessFailedException.class).hasMessageContaining("NoSuchOptionAnywhere");
					})
					.verify(LONG);
		}
		finally {
			misconfigured.close();
		}
	}

	@Test
	void badRegistrationsAreRefusedClearly() {
		assertThatThrownBy(() -> AsyncManager.on(fiber).register(Blocking.class, Tally.class))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("method add").hasMessageContaining("Mono<R> or Flux<R>");
		assertThatThrownBy(() -> AsyncManager.on(fiber).register(Mismatched.class, Tally.class))
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("no public method subtract");
		assertThatThrownBy(() -> AsyncManager.on(fiber).register(Tally.class, Tally.class))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an interface");
		AsyncManager manager = start("registered");
		assertThatThrownBy(() -> manager.create(Mismatched.class))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not registered");
	}

	@Test
	void closingTheFiberStopsEveryManager() {
		AsyncManager first = start("first");
		AsyncManager second = start("second");
		List<FiberProcess> processes = List.of(first.process(), second.process());
		Counter counter = first.create(Counter.class);
		counter.add(1).block(LONG);
		fiber.close();
		await().atMost(LONG).until(() -> processes.stream().noneMatch(FiberProcess::isAlive));
		StepVerifier.create(counter.add(1)).expectError(ManagerLostException.class).verify(LONG);
	}
}
