package io.fiberjvm.it;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import io.fiberjvm.AsyncCloseable;
import io.fiberjvm.Fiber;
import io.fiberjvm.FiberException;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.manager.ManagerLostException;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.queue.QueueClosedException;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Routes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One lifecycle for everything that closes once (a Fiber, a pool, a queue, a manager): {@code closeAsync()}
 * closes when subscribed and completes once closed, {@code onClose()} says when, {@code close()} waits, so
 * {@code Flux.usingWhen} manages each of them.
 */
class LifecycleTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(120);

	@Test
	void aPoolUsedInAPipelineIsClosedWhenThePipelineEnds() {
		AtomicReference<FiberPool> used = new AtomicReference<>();
		FiberFunction<Integer, Integer> twice = x -> 2 * x;
		List<Integer> doubled = Flux.usingWhen(Mono.fromSupplier(() -> fiber.pool(2).name("scoped").open()),
				pool -> {
					used.set(pool);
					return pool.map(twice, Flux.range(0, 20));
				},
				AsyncCloseable::closeAsync)
				.collectList().block(LONG);
		assertThat(doubled).hasSize(20).startsWith(0, 2, 4);
		FiberPool pool = used.get();
		// usingWhen completes once closeAsync has: the workers have ended by then.
		assertThat(pool.isDisposed()).isTrue();
		StepVerifier.create(pool.onClose()).expectComplete().verify(LONG);
		assertThat(pool.workers()).isEmpty();
		StepVerifier.create(pool.apply(twice, 1)).expectError(PoolClosedException.class).verify(LONG);
	}

	@Test
	void closeWaitsForAcceptedWorkWhileDisposeReturnsAtOnce() throws Exception {
		FiberPool pool = fiber.pool(1).name("waiting").open();
		FiberFunction<Integer, Integer> slow = PoolTest.sleeping(20);
		var accepted = pool.map(slow, Flux.range(0, 50)).collectList().toFuture();
		List<FiberProcess> workers = awaitWorkers(pool);
		pool.close();
		// close() returned once the pool had closed: its accepted work done, its workers gone.
		assertThat(pool.onClose().toFuture()).isDone();
		assertThat(workers).noneMatch(FiberProcess::isAlive);
		assertThat(accepted.get(LONG.toSeconds(), TimeUnit.SECONDS)).hasSize(50);

		FiberPool other = fiber.pool(1).name("disposed").open();
		var running = other.map(slow, Flux.range(0, 50)).collectList().toFuture();
		other.dispose();
		assertThat(other.isDisposed()).isTrue();
		assertThat(running.get(LONG.toSeconds(), TimeUnit.SECONDS)).as("disposing still finishes accepted work").hasSize(50);
		StepVerifier.create(other.onClose()).expectComplete().verify(LONG);
	}

	private static List<FiberProcess> awaitWorkers(FiberPool pool) {
		org.awaitility.Awaitility.await().atMost(LONG).until(() -> !pool.workers().isEmpty());
		return pool.workers();
	}

	@Test
	void closingOnANonBlockingThreadIsRefusedAndTheResourceStaysUsable() {
		FiberPool pool = fiber.pool(1).name("refusing").open();
		StepVerifier.create(Mono.delay(Duration.ofMillis(1)).doOnNext(tick -> pool.close()))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
						.hasMessageContaining("non-blocking thread").hasMessageContaining("closeAsync()"))
				.verify(LONG);
		StepVerifier.create(pool.apply((FiberFunction<Integer, Integer>) x -> x + 1, 1)).expectNext(2).verifyComplete();
		StepVerifier.create(Mono.delay(Duration.ofMillis(1)).flatMap(tick -> pool.closeAsync())).expectComplete().verify(LONG);
	}

	@Test
	void aQueueClosedByItsHostIsSeenClosedByAHandleInAnotherProcess() {
		FiberQueue<String> queue = fiber.queue(String.class, 8);
		FiberQueue<String> acks = fiber.queue(String.class, 8);
		FiberProcess watcher = fiber.process(() -> {
			acks.put("watching").block();
			// Completes when the host says the queue has closed.
			queue.onClose().block();
			acks.put("closed").block();
		}).name("watcher").start().block(LONG);
		StepVerifier.create(acks.take()).expectNext("watching").expectComplete().verify(LONG);
		Flux.usingWhen(Mono.just(queue), q -> q.put("one").then(q.take()), AsyncCloseable::closeAsync).blockLast(LONG);
		StepVerifier.create(acks.take()).expectNext("closed").expectComplete().verify(LONG);
		StepVerifier.create(watcher.join()).expectComplete().verify(LONG);
		StepVerifier.create(queue.onClose()).expectComplete().verify(LONG);
		StepVerifier.create(queue.put("late")).expectError(QueueClosedException.class).verify(LONG);
	}

	/** A counter's async face. */
	public interface Counter {
		Mono<Integer> add(int n);
	}

	/** A counter. */
	public static class Tally {
		private int total;

		public int add(int n) {
			total += n;
			return total;
		}
	}

	@Test
	void aManagerIsClosedWhenItsPipelineEndsAndRefusesCallsAfter() {
		AtomicReference<AsyncManager> used = new AtomicReference<>();
		Integer total = Mono.usingWhen(AsyncManager.on(fiber).register(Counter.class, Tally.class).name("scoped").start(),
				manager -> {
					used.set(manager);
					Counter counter = manager.create(Counter.class);
					return counter.add(2).then(counter.add(3));
				},
				AsyncCloseable::closeAsync)
				.block(LONG);
		assertThat(total).isEqualTo(5);
		AsyncManager manager = used.get();
		assertThat(manager.isDisposed()).isTrue();
		assertThat(manager.process().isAlive()).as("closeAsync completed once the process ended").isFalse();
		assertThatThrownBy(() -> manager.create(Counter.class).add(1).block(LONG)).isInstanceOf(ManagerLostException.class);
	}

	@Test
	void aFiberIsClosedByItsPipelineAndItsProcessesWithIt() {
		AtomicReference<FiberProcess> started = new AtomicReference<>();
		AtomicReference<Fiber> opened = new AtomicReference<>();
		Mono.usingWhen(Mono.fromCallable(Fiber::open).subscribeOn(Schedulers.boundedElastic()),
				other -> {
					opened.set(other);
					return other.process(Targets.Sleeper.class).start().doOnNext(started::set).flatMap(FiberProcess::onRunning);
				},
				AsyncCloseable::closeAsync)
				.block(LONG);
		assertThat(opened.get().isDisposed()).isTrue();
		assertThat(started.get().isAlive()).isFalse();
		StepVerifier.create(opened.get().onClose()).expectComplete().verify(LONG);
		assertThatThrownBy(() -> opened.get().queue(String.class)).hasMessageContaining("closed");
	}

	@Test
	void aClosingFiberDisposesEveryServiceAndRefusesNewOnes() {
		Fiber other = Fiber.open();
		RuntimeContext runtime = other.runtime();
		Endpoint self = Objects.requireNonNull(runtime.address().block(LONG), "address");
		Disposable failing = runtime.service(FailingService.class, r -> new FailingService());
		Disposable quiet = runtime.service(QuietService.class, r -> new QuietService());
		assertThat(runtime.service(QuietService.class, r -> new QuietService())).as("one instance per kind").isSameAs(quiet);

		// One service's failure to close keeps neither the others nor the runtime open.
		other.close();
		assertThat(failing.isDisposed()).isTrue();
		assertThat(quiet.isDisposed()).isTrue();

		// After the close: a service made now is closed at once, and nothing new is served, reached or opened.
		assertThat(runtime.service(LateService.class, r -> new LateService()).isDisposed()).isTrue();
		assertThatThrownBy(() -> runtime.serve("fiber.late/", Routes.empty())).isInstanceOf(FiberException.class)
				.hasMessageContaining("closed").hasMessageContaining("fiber.late/");
		StepVerifier.create(runtime.connectionTo(self))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(FiberException.class).hasMessageContaining("closed"))
				.verify(LONG);
		assertThatThrownBy(() -> other.pool(1)).isInstanceOf(PoolClosedException.class).hasMessageContaining("closed");
	}

	/** A service that stops, then says its close failed. */
	static final class FailingService extends QuietService {
		@Override
		public void dispose() {
			super.dispose();
			throw new IllegalStateException("this service fails to close");
		}
	}

	/** A service that stops when disposed. */
	static class QuietService implements Disposable {
		private volatile boolean disposed;

		@Override
		public void dispose() {
			disposed = true;
		}

		@Override
		public boolean isDisposed() {
			return disposed;
		}
	}

	/** A service asked for once its runtime has closed. */
	static final class LateService extends QuietService {
	}
}
