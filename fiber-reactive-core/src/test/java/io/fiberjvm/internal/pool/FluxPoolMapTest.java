package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberException;
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
 * the later attempts once; an argument that cannot travel; an element whose class cannot link; the subscriber's demand;
 * the window; a cancel, an error of the caller's publisher and one thrown downstream, each ending every attempt unheard;
 * a publisher that sends more than asked, one that throws in {@code subscribe}, one that waits for its next item while
 * earlier ones run; a scheduler that refuses the call; the first failure of an unordered call; and where the publisher
 * and the subscriber run.
 */
@Timeout(60)
class FluxPoolMapTest {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final InProcessRuntime runtime = FakeProcess.runtimeStarting(new ConcurrentHashMap<String, FakeProcess>(),
			new CopyOnWriteArrayList<>());
	private final PoolCore core = new PoolCore(runtime, "p", 1, null, 1, ResourceSpec.NONE, null, List.of(), RestartBackoff.DEFAULT);
	private final ShippedFunction square = core.codec.ship((FiberFunction<Integer, Integer>) x -> x * x, FiberFunction.class);
	private final List<ChunkFrame> sent = new CopyOnWriteArrayList<>();
	private final List<Disposable> subscriptions = new ArrayList<>();
	private final List<Throwable> firstErrors = new CopyOnWriteArrayList<>();
	/** Tasks answered so far, by their place among the tasks sent. */
	private int answered;
	private WorkerSession session;

	FluxPoolMapTest() {
		Disposable worker = Flux.<byte[]>create(sink -> {
			session = core.dispatcher.open("w", "w", sink);
			sink.onRequest(n -> core.dispatcher.credit(session));
		}, FluxSink.OverflowStrategy.ERROR).subscribe(frame -> sent.add(ChunkFrame.decode(frame)));
		subscriptions.add(worker);
	}

	@AfterEach
	void end() {
		subscriptions.forEach(Disposable::dispose);
		core.dispatcher.terminate("the test ended");
	}

	/** The call over {@code items}; a first attempt that fails is answered "again" by the later attempts. */
	private Flux<TaskResult<Object>> call(Publisher<?> items, boolean ordered, int chunkSize) {
		return call(items, ordered, chunkSize, Mono.just("again"));
	}

	/** The call over {@code items}; a first attempt that fails goes on to {@code later}. */
	private Flux<TaskResult<Object>> call(Publisher<?> items, boolean ordered, int chunkSize, Mono<Object> later) {
		FluxPoolMap.LaterAttempts attempts = (argument, description, first) -> {
			firstErrors.add(first);
			return later;
		};
		return ordered ? FluxPoolMap.ordered(items, core, square, "map", chunkSize, true, 0, attempts)
				: FluxPoolMap.unordered(items, core, square, "map", chunkSize, true, 0, attempts);
	}

	/** The tasks sent so far, in the order the worker got them. */
	private List<ChunkFrame.Task> tasksSent() {
		List<ChunkFrame.Task> tasks = new ArrayList<>();
		sent.forEach(chunk -> tasks.addAll(chunk.tasks()));
		return tasks;
	}

	/** Answers {@code tasks}, each with its argument's square, as one frame of results that ends a chunk. */
	private void answer(List<ChunkFrame.Task> tasks) {
		List<Answer> answers = new ArrayList<>();
		for (ChunkFrame.Task task : tasks) {
			int x = (Integer) task.argument(runtime.values(), "the argument");
			answers.add(Answer.of(task.id(), runtime.values().write(x * x, "the answer")));
		}
		core.dispatcher.results(session, ResultsFrame.decode(new ResultsFrame(true, 1_000, answers).encode()));
	}

	/** Answers each chunk as it comes, until {@code count} tasks are answered in all: items arrive when they do. */
	private void answerEach(int count) {
		while (answered < count) {
			await().atMost(WAIT).pollInterval(Duration.ofMillis(5)).until(() -> tasksSent().size() > answered);
			List<ChunkFrame.Task> tasks = tasksSent();
			answer(tasks.subList(answered, tasks.size()));
			answered = tasks.size();
		}
	}

	/** A worker may hold a second chunk once the function's tasks are known to be short. */
	private void knownToBeShort() {
		square.record(1_000, 1);
	}

	@Test
	void aLaterElementAnsweredFirstWaitsForTheOneBeforeIt() {
		knownToBeShort();
		StepVerifier.create(call(Flux.range(2, 2), true, 1).map(TaskResult::value))
				.then(() -> await().atMost(WAIT).until(() -> tasksSent().size() == 2))
				.then(() -> answer(List.of(tasksSent().get(1))))
				.then(() -> answer(List.of(tasksSent().get(0))))
				.expectNext(4, 9)
				.expectComplete()
				.verify(WAIT);
		assertThat(firstErrors).isEmpty();
		assertThat(core.submitted.get()).isEqualTo(2);
	}

	@Test
	void manyElementsComeOutInInputOrder() {
		StepVerifier.create(call(Flux.range(0, 1000), true, 1000).map(TaskResult::value))
				.then(() -> answerEach(1000))
				.expectNextSequence(Flux.range(0, 1000).map(x -> (Object) (x * x)).toIterable())
				.expectComplete()
				.verify(WAIT);
		assertThat(core.submitted.get()).isEqualTo(1000);
	}

	@Test
	void unorderedOutcomesComeOutAsTheyEnd() {
		knownToBeShort();
		StepVerifier.create(call(Flux.range(0, 2), false, 1).map(TaskResult::index))
				.then(() -> await().atMost(WAIT).until(() -> tasksSent().size() == 2))
				.then(() -> answer(List.of(tasksSent().get(1))))
				.expectNext(1L)
				.then(() -> answer(List.of(tasksSent().get(0))))
				.expectNext(0L)
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
				.then(() -> answerEach(2))
				.assertNext(result -> assertThat(result.value()).isEqualTo(4))
				.assertNext(result -> {
					assertThat(result.isSuccess()).isFalse();
					assertThat(result.error()).isInstanceOf(CodecException.class).hasMessageContaining("element 1 of map");
				})
				.assertNext(result -> assertThat(result.value()).isEqualTo(9))
				.expectComplete()
				.verify(WAIT);
		assertThat(firstErrors).isEmpty();
		assertThat(core.submitted.get()).isEqualTo(3);
	}

	@Test
	void outcomesWaitForTheSubscribersDemand() {
		StepVerifier.create(call(Flux.range(0, 6), true, 6).map(TaskResult::value), 2)
				.then(() -> answerEach(6))
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
		// And no more are asked for while nothing leaves the window.
		await().during(Duration.ofMillis(300)).atMost(WAIT).until(() -> made.get() == ProcessPool.WINDOW);
		call.dispose();
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] == 0);
	}

	@Test
	void aCancelEndsEveryAttemptUnheardAndStartsNoOther() {
		StepVerifier.create(call(Flux.range(0, 5), true, 2))
				.then(() -> await().atMost(WAIT).until(() -> !sent.isEmpty()))
				.thenCancel()
				.verify(WAIT);
		// The tasks still queued are dropped from the queue; the ones running end unheard.
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] == 0);
		core.dispatcher.lost(session, "killed by the test");
		assertThat(firstErrors).isEmpty();
	}

	@Test
	void anErrorOfTheCallersPublisherEndsTheAttemptsUnheardAndFailsTheCall() {
		Sinks.Many<Integer> items = Sinks.many().unicast().onBackpressureBuffer();
		StepVerifier.create(call(items.asFlux(), true, 1))
				.then(() -> items.tryEmitNext(1))
				.then(() -> await().atMost(WAIT).until(() -> !sent.isEmpty()))
				.then(() -> items.tryEmitNext(2))
				.then(() -> items.tryEmitError(new IllegalStateException("no more items")))
				.expectErrorMessage("no more items")
				.verify(WAIT);
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] == 0);
		// The attempt that was running fails now, as a worker's loss fails it outside the dispatcher's lock, after the
		// call cancelled it: the call is over, so it goes on to no later attempt.
		Task running = session.pending.get(tasksSent().get(0).id());
		assertThat(running).isNotNull();
		running.sink.error(new WorkerLostException(running.toString(), "w", "killed by the test"));
		assertThat(firstErrors).isEmpty();
	}

	@Test
	void aPublisherSendingMoreThanAskedFailsTheCall() {
		Publisher<Integer> twice = subscriber -> subscriber.onSubscribe(new Subscription() {
			private int sent;

			@Override
			public void request(long n) {
				for (long i = 0; i < 2 * n; i++) {
					subscriber.onNext(sent++);
				}
			}

			@Override
			public void cancel() {
			}
		});
		StepVerifier.create(call(twice, true, 0))
				.expectErrorSatisfies(error -> assertThat(error).hasMessageContaining("came faster than they were asked for"))
				.verify(WAIT);
	}

	@Test
	void aPublisherThatThrowsInSubscribeFailsTheCall() {
		Publisher<Integer> throwing = subscriber -> {
			throw new IllegalStateException("the items cannot be read");
		};
		StepVerifier.create(call(throwing, true, 0))
				.expectErrorMessage("the items cannot be read")
				.verify(WAIT);
	}

	@Test
	void anElementWhoseClassCannotLinkFailsAloneWithTheLinkageErrorAsItsCause() {
		StepVerifier.create(call(Flux.just(3), true, 0, Mono.error(new NoClassDefFoundError("com/acme/Gone"))))
				.then(() -> {
					await().atMost(WAIT).until(() -> !sent.isEmpty());
					core.dispatcher.lost(session, "killed by the test");
				})
				.assertNext(result -> assertThat(result.error()).isInstanceOf(FiberException.class)
						.hasCauseInstanceOf(NoClassDefFoundError.class))
				.expectComplete()
				.verify(WAIT);
	}

	@Test
	void aSchedulerThatRefusesTheCallFailsIt() {
		ExecutorService shutDown = Executors.newSingleThreadExecutor();
		shutDown.shutdown();
		Scheduler refusing = Schedulers.fromExecutorService(shutDown);
		FluxPoolMap.LaterAttempts none = (argument, description, first) -> Mono.error(first);
		StepVerifier.create(FluxPoolMap.of(Flux.range(0, 3), refusing, new MapTasks(core, square, "map", 0, true, 0, none), true))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(RejectedExecutionException.class))
				.verify(WAIT);
		assertThat(sent).isEmpty();
	}

	@Test
	void anErrorThrownDownstreamFailsTheCallInsteadOfHangingIt() {
		StepVerifier.create(call(Flux.range(0, 3), true, 0).doOnNext(result -> {
			throw new LinkageError("a class the subscriber needs cannot link");
		}))
				.then(() -> answerEach(1))
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(LinkageError.class))
				.verify(WAIT);
		await().atMost(WAIT).until(() -> core.dispatcher.counters()[1] == 0);
	}

	@Test
	void aPublisherWaitingForItsNextItemHoldsUpNoneOfTheEarlierOnes() throws InterruptedException {
		CountDownLatch third = new CountDownLatch(1);
		AtomicInteger made = new AtomicInteger();
		Flux<Integer> slow = Flux.generate(sink -> {
			int n = made.getAndIncrement();
			if (n == 2) {
				try {
					third.await(WAIT.toSeconds(), TimeUnit.SECONDS);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
				}
			}
			if (n == 3) {
				sink.complete();
			}
			else {
				sink.next(n);
			}
		});
		StepVerifier.create(call(slow, true, 0).map(TaskResult::value))
				.then(() -> answerEach(2))
				.expectNext(0, 1)
				.then(third::countDown)
				.then(() -> answerEach(3))
				.expectNext(4)
				.expectComplete()
				.verify(WAIT);
	}

	@Test
	void anUnorderedCallFailsAtOnceWithItsFirstFailedElementWhateverTheDemand() {
		StepVerifier.create(call(Flux.just(new Object(), 2), false, 1), 0)
				.expectErrorSatisfies(error -> assertThat(error).isInstanceOf(CodecException.class)
						.hasMessageContaining("element 0 of map"))
				.verify(WAIT);
	}

	@Test
	void theCallersPublisherAndTheSubscriberRunOnWorkersOfTheirOwnWhereBlockingIsAllowed() {
		List<String> publisher = new CopyOnWriteArrayList<>();
		List<String> subscriber = new CopyOnWriteArrayList<>();
		StepVerifier.create(call(Flux.range(0, 2).doOnSubscribe(s -> publisher.add(Thread.currentThread().getName()))
				.doOnRequest(n -> publisher.add(Thread.currentThread().getName())), true, 2)
				.doOnNext(result -> subscriber.add(Thread.currentThread().getName())))
				.then(() -> answerEach(2))
				.expectNextCount(2)
				.expectComplete()
				.verify(WAIT);
		assertThat(publisher).hasSizeGreaterThanOrEqualTo(2).allSatisfy(name -> assertThat(name).startsWith("boundedElastic-"));
		assertThat(subscriber).hasSize(2).allSatisfy(name -> assertThat(name).startsWith("boundedElastic-"));
		assertThat(publisher).doesNotContainAnyElementsOf(subscriber);
	}
}
