package io.fiberjvm.it;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.RemoteException;
import io.fiberjvm.manager.Manager;
import io.fiberjvm.manager.ManagerLostException;
import io.fiberjvm.manager.SharedCounter;
import io.fiberjvm.manager.SharedList;
import io.fiberjvm.manager.SharedMap;
import io.fiberjvm.manager.SharedQueue;
import io.fiberjvm.manager.SharedValue;

import static org.assertj.core.api.Assertions.assertThat;

/** A manager's shared objects, used from the parent and from child JVMs they are shipped to. */
class SharedObjectsTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(120);

	private Manager manager;

	@BeforeAll
	static void timeouts() {
		StepVerifier.setDefaultTimeout(LONG);
	}

	@BeforeEach
	void startManager() {
		manager = Manager.on(fiber).name("shared").start().block(LONG);
	}

	private FiberProcess run(String name, io.fiberjvm.FiberRunnable target) {
		return fiber.process(target).name(name).start().block(LONG);
	}

	@Test
	void aMapPutsGetsAndComputesAtomically() {
		SharedMap<String, Integer> map = manager.map("scores");
		StepVerifier.create(map.put("a", 1)).verifyComplete();
		StepVerifier.create(map.put("a", 2)).expectNext(1).verifyComplete();
		StepVerifier.create(map.get("a")).expectNext(2).verifyComplete();
		StepVerifier.create(map.get("missing")).verifyComplete();
		StepVerifier.create(map.compute("a", (k, v) -> v == null ? 1 : v * 10)).expectNext(20).verifyComplete();
		assertThat(map.blocking().snapshot()).isEqualTo(Map.of("a", 20));
		assertThat(map.blocking().size()).isEqualTo(1);
	}

	@Test
	void nestedValuesAreCopiesUntilPutBack() {
		SharedMap<String, ArrayList<Integer>> map = manager.map("nested");
		map.put("k", new ArrayList<>(List.of(1))).block(LONG);
		ArrayList<Integer> mine = map.get("k").block(LONG);
		mine.add(2);
		assertThat(map.get("k").block(LONG)).containsExactly(1);
		map.put("k", mine).block(LONG);
		assertThat(map.get("k").block(LONG)).containsExactly(1, 2);
	}

	@Test
	void concurrentUpdatesFromThreeProcessesAreNotLost() {
		SharedCounter counter = manager.counter("hits");
		SharedMap<String, Integer> map = manager.map("tally");
		SharedList<String> list = manager.list("log");
		List<FiberProcess> writers = new ArrayList<>();
		for (int w = 0; w < 3; w++) {
			String writer = "w" + w;
			writers.add(run("writer-" + w, () -> {
				for (int i = 0; i < 200; i++) {
					counter.blocking().incrementAndGet();
					map.blocking().compute("total", (k, v) -> v == null ? 1 : v + 1);
				}
				list.blocking().add(writer);
			}));
		}
		Flux.fromIterable(writers).flatMap(FiberProcess::join).then().block(LONG);
		assertThat(counter.blocking().get()).isEqualTo(600);
		assertThat(map.blocking().get("total")).isEqualTo(600);
		assertThat(list.blocking().snapshot()).containsExactlyInAnyOrder("w0", "w1", "w2");
	}

	@Test
	void handlesWorkInsidePoolWorkers() {
		SharedCounter counter = manager.counter("from-pool");
		io.fiberjvm.pool.FiberPool pool = fiber.pool(2).name("counting").open();
		List<Long> seen = pool.map((io.fiberjvm.FiberFunction<Integer, Long>) x -> counter.blocking().incrementAndGet(),
				Flux.range(0, 20)).collectList().block(LONG);
		assertThat(seen).hasSize(20).doesNotHaveDuplicates();
		assertThat(counter.blocking().get()).isEqualTo(20);
	}

	@Test
	void aQueueTakeWaitsForAPutFromAnotherProcess() throws Exception {
		SharedQueue<String> queue = manager.queue("jobs");
		var taken = queue.take().toFuture();
		assertThat(taken).isNotDone();
		run("producer", () -> queue.blocking().put("hello")).join().block(LONG);
		assertThat(taken.get(LONG.toSeconds(), TimeUnit.SECONDS)).isEqualTo("hello");
		StepVerifier.create(queue.poll()).verifyComplete();
		StepVerifier.create(queue.put("a").then(queue.put("b")).then(queue.size())).expectNext(2).verifyComplete();
		// One take after the other: two takes in flight at once may be served in either order.
		StepVerifier.create(queue.take().flatMap(first -> queue.take().map(second -> List.of(first, second))))
				.expectNext(List.of("a", "b"))
				.verifyComplete();
	}

	@Test
	void valuesAndCountersCompareAndSet() {
		SharedValue<String> value = manager.value("state");
		StepVerifier.create(value.get()).verifyComplete();
		StepVerifier.create(value.set("idle")).verifyComplete();
		StepVerifier.create(value.compareAndSet("busy", "done")).expectNext(false).verifyComplete();
		StepVerifier.create(value.compareAndSet("idle", "busy")).expectNext(true).verifyComplete();
		StepVerifier.create(value.update(s -> s + "!")).expectNext("busy!").verifyComplete();
		SharedCounter counter = manager.counter("c");
		StepVerifier.create(counter.addAndGet(5).then(counter.compareAndSet(5, 7)).then(counter.get())).expectNext(7L).verifyComplete();
	}

	@Test
	void badOperationsFailClearly() {
		SharedList<String> list = manager.list("short");
		StepVerifier.create(list.get(3))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(RemoteException.class)
						.hasMessageContaining(IndexOutOfBoundsException.class.getName()))
				.verify(LONG);
		StepVerifier.create(manager.map("m").put("k", null))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("no null values"))
				.verify(LONG);
		org.assertj.core.api.Assertions.assertThatThrownBy(() -> manager.map("no spaces allowed"))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
	}

	@Test
	void handlesOfADeadManagerFailWithManagerLost() {
		SharedCounter counter = manager.counter("doomed");
		counter.incrementAndGet().block(LONG);
		manager.process().pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
		manager.onClose().block(LONG);
		StepVerifier.create(counter.incrementAndGet())
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ManagerLostException.class).hasMessageContaining("doomed"))
				.verify(LONG);
	}
}
