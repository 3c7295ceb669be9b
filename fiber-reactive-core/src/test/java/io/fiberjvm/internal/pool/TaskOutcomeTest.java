package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
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
 * One element's outcome against a pool's real dispatcher, with a worker session the test answers by hand: a value, a
 * first attempt lost with its worker going on through the later attempts once, an argument that cannot travel, and a
 * cancel that ends it unheard.
 */
class TaskOutcomeTest {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private final InProcessRuntime runtime = FakeProcess.runtimeStarting(new ConcurrentHashMap<String, FakeProcess>(),
			new CopyOnWriteArrayList<>());
	private final PoolCore core = new PoolCore(runtime, "p", 1, 1, ResourceSpec.NONE, null, List.of(), RestartBackoff.DEFAULT);
	private final ShippedFunction square = core.codec.ship((FiberFunction<Integer, Integer>) x -> x * x, FiberFunction.class);
	private final List<ChunkFrame> sent = new CopyOnWriteArrayList<>();
	private final List<Disposable> subscriptions = new ArrayList<>();
	private WorkerSession session;

	TaskOutcomeTest() {
		Disposable worker = reactor.core.publisher.Flux.<byte[]>create(sink -> {
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

	private Mono<TaskResult<Object>> outcome(Object arg, List<Throwable> firstErrors) {
		return TaskOutcome.of(core, square, arg, new TaskName("map", 4, square), 0, (argument, first) -> {
			firstErrors.add(first);
			return Mono.just("again");
		});
	}

	private void answer(ChunkFrame chunk, byte[] value) {
		List<Answer> answers = new ArrayList<>();
		chunk.tasks().forEach(t -> answers.add(Answer.of(t.id(), value)));
		core.dispatcher.results(session, ResultsFrame.decode(new ResultsFrame(true, 1_000, answers).encode()));
	}

	@Test
	void theWorkersAnswerIsTheElementsValue() {
		List<Throwable> firstErrors = new CopyOnWriteArrayList<>();
		StepVerifier.create(outcome(3, firstErrors))
				.then(() -> {
					await().atMost(WAIT).until(() -> !sent.isEmpty());
					answer(sent.get(0), runtime.values().write(9, "the answer"));
				})
				.assertNext(result -> {
					assertThat(result.index()).isEqualTo(4);
					assertThat(result.value()).isEqualTo(9);
				})
				.expectComplete()
				.verify(WAIT);
		assertThat(firstErrors).isEmpty();
		assertThat(core.submitted.get()).isEqualTo(1);
	}

	@Test
	void aFirstAttemptLostWithItsWorkerGoesOnThroughTheLaterAttemptsOnce() {
		List<Throwable> firstErrors = new CopyOnWriteArrayList<>();
		StepVerifier.create(outcome(3, firstErrors))
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
	void anArgumentThatCannotTravelFailsTheElementWithoutATask() {
		List<Throwable> firstErrors = new CopyOnWriteArrayList<>();
		StepVerifier.create(outcome(new Object(), firstErrors))
				.assertNext(result -> {
					assertThat(result.isSuccess()).isFalse();
					assertThat(result.error()).isInstanceOf(CodecException.class).hasMessageContaining("element 4 of map");
				})
				.expectComplete()
				.verify(WAIT);
		assertThat(sent).isEmpty();
		assertThat(firstErrors).isEmpty();
	}

	@Test
	void aCancelledElementsAttemptEndsUnheardAndStartsNoOther() {
		List<Throwable> firstErrors = new CopyOnWriteArrayList<>();
		StepVerifier.create(outcome(3, firstErrors))
				.then(() -> await().atMost(WAIT).until(() -> !sent.isEmpty()))
				.thenCancel()
				.verify(WAIT);
		core.dispatcher.lost(session, "killed by the test");
		assertThat(firstErrors).isEmpty();
	}
}
