package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.runtime.InProcessRuntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A pool's parts wired together, with worker processes the test runs by hand and workers whose sessions
 * arrive on the pool's own route, answering with the real worker-side runner: admission, a failed session,
 * retirement, and the end of the pool.
 */
class PoolCoreTest {

	private static final Duration WAIT = Duration.ofSeconds(10);
	/** The fake workers' timer for deadlines, which no task here has. */
	private static final ScheduledExecutorService DEADLINES = Executors.newSingleThreadScheduledExecutor(task -> {
		Thread thread = new Thread(task, "test-deadlines");
		thread.setDaemon(true);
		return thread;
	});

	private final Map<String, FakeProcess> processes = new ConcurrentHashMap<>();
	private final List<String> startOrder = new CopyOnWriteArrayList<>();
	private final InProcessRuntime runtime = FakeProcess.runtimeStarting(processes, startOrder);

	private PoolCore core(int size, int perProcess) {
		PoolCore core = new PoolCore(runtime, "p", size, null, perProcess, ResourceSpec.NONE, null, List.of(), RestartBackoff.DEFAULT);
		core.open();
		return core;
	}

	private String prefix() {
		return runtime.served().stream().filter(p -> p.startsWith("fiber.pool-")).findFirst().orElseThrow();
	}

	/** A worker's side of its session: it holds the chunks sent to it and answers them as a worker does. */
	private final class FakeWorker extends BaseSubscriber<byte[]> {
		final Sinks.Many<byte[]> up = Sinks.many().unicast().onBackpressureBuffer();
		final List<ChunkFrame> chunks = new CopyOnWriteArrayList<>();
		final TaskRunner runner;

		volatile @Nullable Throwable error;
		volatile boolean completed;

		FakeWorker(String worker) {
			TaskCodec codec = new TaskCodec(runtime.values(), runtime.maxFrameSize());
			runner = new TaskRunner(codec, new TaskStreamer(codec, runtime.router()::requestChannel, prefix() + "streams/" + worker + "/"),
					new TaskWatch(Thread.currentThread(), DEADLINES, Duration.ofSeconds(5), (id, timeout, cancelled) -> { }), worker,
					frame -> up.tryEmitNext(frame.toArray()), runtime.maxFrameSize());
			runtime.router().requestChannel(prefix() + "work/" + worker, up.asFlux()).subscribe(this);
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			subscription.request(PoolWorker.HELD_CHUNKS);
		}

		@Override
		protected void hookOnNext(byte[] frame) {
			chunks.add(ChunkFrame.decode(frame));
		}

		@Override
		protected void hookOnComplete() {
			completed = true;
		}

		@Override
		protected void hookOnError(Throwable failure) {
			error = failure;
		}

		void answer(int chunk) {
			runner.run(chunks.get(chunk));
			request(1);
		}
	}

	private static final FiberFunction<Integer, Integer> SQUARE = x -> x * x;

	@Test
	void aTaskGoesToAnAdmittedWorkerAndItsResultComesBack() {
		PoolCore core = core(1, 1);
		FiberPool pool = new ProcessPool(core, true, DefaultPoolBuilder.DEFAULT_RETRY, 0, 0);
		FakeWorker worker = new FakeWorker("p-w1");
		var result = pool.apply(SQUARE, 7).toFuture();
		await().atMost(WAIT).until(() -> worker.chunks.size() == 1);
		assertThat(worker.chunks.get(0).function()).as("the function travels with the first chunk").isNotNull();
		worker.answer(0);
		assertThat(result).succeedsWithin(WAIT).isEqualTo(49);
		assertThat(core.stats().completed()).isEqualTo(1);
		assertThat(core.workers()).containsExactly(processes.get("p-w1"));
	}

	@Test
	void aStreamingTaskGoesAloneAndNothingIsSentBehindIt() {
		PoolCore core = core(1, 1);
		FiberPool pool = new ProcessPool(core, true, DefaultPoolBuilder.DEFAULT_RETRY, 0, 0);
		FakeWorker worker = new FakeWorker("p-w1");
		FiberFunction<Integer, Flux<Integer>> upTo = n -> Flux.range(0, n);
		List<Integer> got = new CopyOnWriteArrayList<>();
		StepVerifier.Step<Integer> stream = StepVerifier.create(pool.flatMap(upTo, List.of(3, 2)).doOnNext(got::add), 0);
		// The second task waits in the queue: no chunk goes to a worker behind a streaming task.
		var result = CompletableFuture.runAsync(() -> stream.thenRequest(Long.MAX_VALUE).expectNext(0, 1, 2, 0, 1).verifyComplete());
		await().atMost(WAIT).until(() -> worker.chunks.size() == 1);
		assertThat(worker.chunks.get(0).tasks()).hasSize(1);
		assertThat(core.stats().queued()).isEqualTo(1);
		worker.answer(0);
		await().atMost(WAIT).until(() -> worker.chunks.size() == 2);
		worker.answer(1);
		assertThat(result).succeedsWithin(WAIT);
		assertThat(got).containsExactly(0, 1, 2, 0, 1);
	}

	@Test
	void aStreamForNoRunningTaskIsRefused() {
		core(1, 1);
		StepVerifier.create(runtime.router().requestChannel(prefix() + "streams/p-w1/42", Flux.just(new byte[] {1})))
				.expectErrorSatisfies(error -> assertThat(error).hasMessageContaining("runs no streaming task 'p-w1/42'"))
				.verify(WAIT);
	}

	@Test
	void aSessionForNoSuchWorkerIsRefusedNamingIt() {
		core(1, 1);
		FakeWorker stranger = new FakeWorker("p-w9");
		await().atMost(WAIT).until(() -> stranger.error != null);
		assertThat(stranger.error).isInstanceOf(PoolClosedException.class).hasMessageContaining("has no worker 'p-w9'");
	}

	@Test
	void aWorkerRetiredWhileItsProcessStartedGetsASessionThatEndsAtOnce() {
		PoolCore core = core(2, 2);
		FakeWorker first = new FakeWorker("p-w1");
		await().atMost(WAIT).until(() -> core.stats().workers() == 1);
		core.resize(1);
		FakeWorker second = new FakeWorker("p-w2");
		await().atMost(WAIT).until(() -> second.completed);
		assertThat(second.error).isNull();
		assertThat(processes.get("p-p1").terminated).as("its sibling still works there").isFalse();
		assertThat(core.size()).isEqualTo(1);
	}

	@Test
	void aFailedSessionStopsItsProcessAndItsTaskRunsOnTheReplacement() {
		PoolCore core = core(1, 1);
		FiberPool pool = new ProcessPool(core, true, DefaultPoolBuilder.DEFAULT_RETRY, 0, 0);
		FakeWorker lost = new FakeWorker("p-w1");
		var result = pool.apply(SQUARE, 3).toFuture();
		await().atMost(WAIT).until(() -> lost.chunks.size() == 1);
		lost.up.tryEmitError(new IllegalStateException("connection reset"));
		await().atMost(WAIT).until(() -> processes.get("p-w1").terminated);
		await().atMost(WAIT).until(() -> startOrder.size() == 2);
		FakeWorker replacement = new FakeWorker("p-w2");
		await().atMost(WAIT).until(() -> replacement.chunks.size() == 1);
		replacement.answer(0);
		assertThat(result).succeedsWithin(WAIT).isEqualTo(9);
		assertThat(core.stats().lost()).isEqualTo(1);
		assertThat(core.stats().retried()).isEqualTo(1);
	}

	@Test
	void closingAnIdlePoolRetiresItsWorkersAndEndsOnceTheirProcessesHave() {
		PoolCore core = core(1, 1);
		FiberPool pool = new ProcessPool(core, true, DefaultPoolBuilder.DEFAULT_RETRY, 0, 0);
		FakeWorker worker = new FakeWorker("p-w1");
		await().atMost(WAIT).until(() -> core.stats().workers() == 1);
		String route = prefix();
		pool.dispose();
		await().atMost(WAIT).until(() -> worker.completed);
		assertThat(pool.onClose().toFuture()).as("not while its process lives").isNotDone();
		processes.get("p-w1").exit(0);
		StepVerifier.create(pool.onClose()).expectComplete().verify(WAIT);
		assertThat(runtime.served()).as("its route is no longer served").doesNotContain(route);
		assertThat(Pools.of(runtime).status()).isEmpty();
		StepVerifier.create(pool.apply(SQUARE, 1)).expectError(PoolClosedException.class).verify(WAIT);
	}
}
