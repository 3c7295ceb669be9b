package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.pool.TaskResult;
import io.fiberjvm.pool.WorkerLostException;
import io.fiberjvm.runtime.InProcessRuntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A mapping call's operator against a pool's real dispatcher, with a worker session the test answers by hand: values in
 * input order whatever order the answers come in, or as they end; a first attempt lost with its worker going on through
 * the later attempts once; an argument that cannot travel; the subscriber's demand; a cancel that ends every attempt
 * unheard; an error of the caller's publisher; and where the caller's publisher and the subscriber run.
 */
@Timeout(60)
class FluxPoolMapTest {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final InProcessRuntime runtime = FakeProcess.runtimeStarting(new ConcurrentHashMap<String, FakeProcess>(),
			new CopyOnWriteArrayList<>());
	private final PoolCore core = new PoolCore(runtime, "p", 1, 1, ResourceSpec.NONE, null, List.of(), RestartBackoff.DEFAULT);
	private final ShippedFunction square = core.codec.ship((FiberFunction<Integer, Integer>) x -> x * x, FiberFunction.class);
	private final List<ChunkFrame> sent = new CopyOnWriteArrayList<>();
	private final List<Disposable> subscriptions = new ArrayList<>();
	private final List<Throwable> firstErrors = new CopyOnWriteArrayList<>();
	private WorkerSession session;

	FluxPoolMapTest() {
		Disposable worker = Flux.<byte[]>create(sink -> {
			session = core.dispatcher.open("w", sink);
			sink.onRequest(n -> core.dispatcher.credit());
		}, FluxSink.OverflowStrategy.ERROR).subscribe(frame -> sent.add(ChunkFrame.decode(frame)));
		subscriptions.add(worker);
	}

	@AfterEach
	void end() {
		subscriptions.forEach(Disposable::dispose);
		core.dispatcher.terminate("the test ended");
	}

	/** The call over {@code items}; a first attempt that fails is answered "again" by the later attempts. */
	private FluxPoolMap<Object> call(Flux<?> items, boolean ordered, int chunkSize) {
		return new FluxPoolMap<>(items, core, square, "map", chunkSize, ordered, (argument, description, first) -> {
			firstErrors.add(first);
			return Mono.just("again");
		});
	}

	/** The ids of the tasks sent so far, in the order the worker got them. */
	private List<ChunkFrame.Task> tasksSent() {
		List<ChunkFrame.Task> tasks = new ArrayList<>();
		sent.forEach(chunk -> tasks.addAll(chunk.tasks()));
		return tasks;
	}

	/** Answers {@code tasks}, each with its argument's square, as one chunk's results. */
	private void answer(List<ChunkFrame.Task> tasks) {
		List<Answer> answers = new ArrayList<>();
		for (ChunkFrame.Task task : tasks) {
			int x = (Integer) task.argument(runtime.values(), "the argument");
			answers.add(Answer.of(task.id(), runtime.values().write(x * x, "the answer")));
		}
		core.dispatcher.results(session, ResultsFrame.decode(new ResultsFrame(true, 1_000, answers).encode()));
	}

	@Test
	void answersInAnyOrderComeOutInInputOrder() {
		StepVerifier.create(call(Flux.range(0, 10), true, 10).map(TaskResult::value))
				.then(() -> {
					await().atMost(WAIT).until(() -> tasksSent().size() == 10);
					List<ChunkFrame.Task> reversed = new ArrayList<>(tasksSent());
					Collections.reverse(reversed);
					answer(reversed.subList(0, 5));
					answer(reversed.subList(5, 10));
				})
				.expectNext(0, 1, 4, 9, 16, 25, 36, 49, 64, 81)
				.expectComplete()
				.verify(WAIT);
		assertThat(firstErrors).isEmpty();
		assertThat(core.submitted.get()).isEqualTo(10);
	}

	@Test
	void unorderedOutcomesComeOutAsTheyEnd() {
		StepVerifier.create(call(Flux.range(0, 4), false, 4).map(TaskResult::index))
				.then(() -> {
					await().atMost(WAIT).until(() -> tasksSent().size() == 4);
					List<ChunkFrame.Task> tasks = tasksSent();
					answer(List.of(tasks.get(2)));
				})
				.expectNext(2L)
				.then(() -> answer(List.of(tasksSent().get(0), tasksSent().get(3), tasksSent().get(1))))
				.expectNextCount(3)
				.expectComplete()
				.verify(WAIT);
	}

	@Test
	void aFirstAttemptLostWithItsWorkerGoesOnThroughTheLaterAttemptsOnce() {
		StepVerifier.create(call(Flux.just(3), true, 0))
				.then(() -> {
					await().atMost(WAIT).until(() -> !sent.isEmpty());
					core.dispatcher.lost(session, "killed by the test");
				})
				.assertNext(result -> assertThat(result.value()).isEqualTo("again"))
				.expectComplete()
				.verify(WAIT);
		assertThat(firstErrors).singleElement().isInstanceOf(WorkerLostException.class);
	}

	@Test
	void anArgumentThatCannotTravelFailsItsElementAloneWithoutATask() {
		StepVerifier.create(call(Flux.just(2, new Object(), 3), true, 2))
				.then(() -> {
					await().atMost(WAIT).until(() -> tasksSent().size() == 2);
					answer(tasksSent());
				})
				.assertNext(result -> assertThat(result.value()).isEqualTo(4))
				.assertNext(result -> {
					assertThat(result.isSuccess()).isFalse();
					assertThat(result.error()).isInstanceOf(CodecException.class).hasMessageContaining("element 1 of map");
				})
				.assertNext(result -> assertThat(result.value()).isEqualTo(9))
				.expectComplete()
				.verify(WAIT);
		assertThat(firstErrors).isEmpty();
	}

	@Test
	void outcomesWaitForTheSubscribersDemand() {
		StepVerifier.create(call(Flux.range(0, 6), true, 6).map(TaskResult::value), 2)
				.then(() -> {
					await().atMost(WAIT).until(() -> tasksSent().size() == 6);
					answer(tasksSent());
				})
				.expectNext(0, 1)
				.expectNoEvent(Duration.ofMillis(100))
				.thenRequest(3)
				.expectNext(4, 9, 16)
				.thenRequest(1)
				.expectNext(25)
				.expectComplete()
				.verify(WAIT);
	}

	@Test
	void theCallersPublisherIsAskedNoFurtherThanTheWindow() {
		AtomicInteger made = new AtomicInteger();
		Flux<Integer> endless = Flux.generate(sink -> sink.next(made.getAndIncrement()));
		Disposable call = call(endless, true, 0).subscribe();
		subscriptions.add(call);
		// Queued and in flight: nothing is answered, so the window fills and stays full.
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] + core.dispatcher.counters()[2] == ProcessPool.WINDOW);
		assertThat(made.get()).isEqualTo(ProcessPool.WINDOW);
		call.dispose();
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] == 0);
	}

	@Test
	void aCancelEndsEveryAttemptUnheardAndStartsNoOther() {
		StepVerifier.create(call(Flux.range(0, 5), true, 2))
				.then(() -> await().atMost(WAIT).until(() -> tasksSent().size() >= 2))
				.thenCancel()
				.verify(WAIT);
		// The tasks still queued are dropped from the queue; the one running ends unheard.
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] == 0);
		core.dispatcher.lost(session, "killed by the test");
		assertThat(firstErrors).isEmpty();
	}

	@Test
	void anErrorOfTheCallersPublisherCancelsTheAttemptsAndFailsTheCall() {
		Sinks.Many<Integer> items = Sinks.many().unicast().onBackpressureBuffer();
		StepVerifier.create(call(items.asFlux(), true, 1))
				.then(() -> {
					items.tryEmitNext(1);
					items.tryEmitNext(2);
				})
				.then(() -> await().atMost(WAIT).until(() -> !sent.isEmpty()))
				.then(() -> items.tryEmitError(new IllegalStateException("no more items")))
				.expectErrorMessage("no more items")
				.verify(WAIT);
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] == 0);
	}

	@Test
	void theCallersPublisherAndTheSubscriberRunOnAWorkerWhereBlockingIsAllowed() {
		List<String> threads = new CopyOnWriteArrayList<>();
		AtomicBoolean answered = new AtomicBoolean();
		StepVerifier.create(call(Flux.range(0, 2).doOnSubscribe(s -> threads.add(Thread.currentThread().getName()))
				.doOnRequest(n -> threads.add(Thread.currentThread().getName())), true, 2)
				.doOnNext(result -> threads.add(Thread.currentThread().getName())))
				.then(() -> {
					await().atMost(WAIT).until(() -> tasksSent().size() == 2);
					answer(tasksSent());
					answered.set(true);
				})
				.expectNextCount(2)
				.expectComplete()
				.verify(WAIT);
		assertThat(answered).isTrue();
		assertThat(threads).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("boundedElastic-"));
	}
}
