package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.WorkerLostException;
import io.fiberjvm.pool.WorkerStartException;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's scheduling and pending table, with sessions that are plain Reactor subscribers. */
class DispatcherTest {

	/** The id of the task whose completion throws an {@link AssertionError}, or 0 for none. */
	private volatile long failingCompletion;
	private final Dispatcher dispatcher = new Dispatcher(1 << 19, (task, outcome) -> {
		if (task.id == failingCompletion) {
			throw new AssertionError("a completion that throws an error");
		}
		if (outcome.error() != null) {
			task.sink.error(outcome.error());
		}
		else {
			task.sink.success(outcome.answer().id());
		}
	});
	private final ShippedFunction function = new ShippedFunction((FiberFunction<Integer, Integer>) x -> x, FiberFunction.class,
			new ShippedValues(List.of()));

	/** A worker's side: it holds what it was sent and asks for {@code credit} chunks up front. */
	private final class FakeWorker extends BaseSubscriber<byte[]> {
		final List<ChunkFrame> chunks = new CopyOnWriteArrayList<>();
		final List<byte[]> frames = new CopyOnWriteArrayList<>();
		final List<Long> cancelled = new CopyOnWriteArrayList<>();
		WorkerSession session;

		FakeWorker(String name) {
			this(name, name);
		}

		/** A worker of the process named {@code host}, which may host others. */
		FakeWorker(String name, String host) {
			Flux.<byte[]>create(sink -> {
				session = dispatcher.open(name, host, sink);
				sink.onRequest(n -> dispatcher.credit(session));
			}, FluxSink.OverflowStrategy.ERROR).subscribe(this);
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			subscription.request(2);
		}

		@Override
		protected void hookOnNext(byte[] frame) {
			if (frame[0] == io.fiberjvm.internal.frames.FrameKind.CANCEL.code()) {
				cancelled.addAll(io.fiberjvm.internal.frames.CancelFrame.decode(frame).ids());
				return;
			}
			frames.add(frame);
			chunks.add(ChunkFrame.decode(frame));
		}

		void answer(ChunkFrame chunk) {
			List<Answer> answers = new ArrayList<>();
			chunk.tasks().forEach(t -> answers.add(Answer.of(t.id(), new byte[0])));
			dispatcher.results(session, ResultsFrame.decode(new ResultsFrame(true, 1_000, answers).encode()));
			request(1);
		}
	}

	private long ids;

	private Mono<Object> submit(List<Task> into) {
		return submit(into, true);
	}

	private Mono<Object> submit(List<Task> into, boolean idempotent) {
		return submit(into, idempotent, 0);
	}

	private Mono<Object> submit(List<Task> into, boolean idempotent, int chunkSize) {
		return Mono.create(sink -> {
			Task task = new Task(++ids, function, java.nio.ByteBuffer.wrap(new byte[] {1}), new TaskName("map", ids, function), 1, chunkSize,
					idempotent, TaskSink.of(sink));
			into.add(task);
			sink.onCancel(() -> dispatcher.cancel(task));
			dispatcher.submit(task);
		});
	}

	@Test
	void theLoadCountsTheLongestWaitEvenBehindARetryPutAheadAndTheIdleWorkers() {
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		long afterFirst = System.nanoTime();
		submit(tasks).subscribe();
		// A retry goes ahead of the first attempts, queued last of all.
		Mono.create(sink -> dispatcher.submit(new Task(++ids, function, java.nio.ByteBuffer.wrap(new byte[] {1}),
				new TaskName("map", ids, function), 2, 0, true, TaskSink.of(sink)))).subscribe();
		long now = System.nanoTime();
		PoolLoad waiting = dispatcher.load(now);
		assertThat(waiting.queued()).isEqualTo(3);
		assertThat(waiting.waitNanos()).isGreaterThanOrEqualTo(now - afterFirst);
		assertThat(waiting.idle()).isEmpty();

		FakeWorker a = new FakeWorker("a");
		FakeWorker b = new FakeWorker("b");
		// Each chunk answered once, as it comes, until none is left.
		int[] answered = new int[2];
		List<FakeWorker> workers = List.of(a, b);
		for (boolean more = true; more;) {
			more = false;
			for (int w = 0; w < 2; w++) {
				FakeWorker worker = workers.get(w);
				while (answered[w] < worker.chunks.size()) {
					worker.answer(worker.chunks.get(answered[w]++));
					more = true;
				}
			}
		}
		assertThat(answered[0] + answered[1]).isPositive();
		PoolLoad drained = dispatcher.load(System.nanoTime() + 1_000_000_000L);
		assertThat(drained.queued()).isZero();
		assertThat(drained.waitNanos()).isZero();
		assertThat(drained.idle()).extracting(PoolLoad.Idle::worker).containsExactlyInAnyOrder("a", "b");
		assertThat(drained.idle()).allSatisfy(idle -> assertThat(idle.nanos()).isGreaterThanOrEqualTo(1_000_000_000L));
	}

	@Test
	void idleWorkersGoFirstAndUnknownDurationsAreNotPrefetched() {
		FakeWorker a = new FakeWorker("a");
		FakeWorker b = new FakeWorker("b");
		List<Task> tasks = new ArrayList<>();
		List<Object> results = new CopyOnWriteArrayList<>();
		for (int i = 0; i < 4; i++) {
			submit(tasks).subscribe(results::add);
		}
		assertThat(a.chunks).hasSize(1);
		assertThat(b.chunks).hasSize(1);
		assertThat(a.chunks.get(0).function()).as("first chunk carries the function").isNotNull();
		assertThat(dispatcher.counters()[1]).as("queued").isEqualTo(2);

		a.answer(a.chunks.get(0));
		assertThat(results).containsExactly(1L);
		// Now the duration is known (1 µs a task), so a short chunk may wait behind another: the two
		// queued tasks go one each (a fair share: 2 queued / 2 workers), to idle a and to busy b, and
		// a does not get the function's bytes again.
		assertThat(a.chunks).hasSize(2);
		assertThat(b.chunks).hasSize(2);
		assertThat(a.chunks.get(1).function()).isNull();
		assertThat(a.chunks.get(1).tasks()).hasSize(1);
		assertThat(b.chunks.get(1).tasks()).hasSize(1);
		assertThat(dispatcher.counters()[1]).as("queued").isZero();
	}

	@Test
	void onlyAFirstAttemptIsFramedInItsLargeArgumentsOwnArray() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		a.answer(a.chunks.get(0));
		java.nio.ByteBuffer arg = ChunkFrame.argument(new ShippedValues(List.of()), new double[10_000], "weights");
		for (int attempt = 1; attempt <= 2; attempt++) {
			int n = attempt;
			Mono.create(sink -> dispatcher.submit(new Task(++ids, function, arg, new TaskName("map", ids, function), n, 0, true,
					TaskSink.of(sink)))).subscribe();
		}
		assertThat(a.frames).as("a retry goes alone, to a worker holding nothing").hasSize(2);
		a.answer(a.chunks.get(1));
		assertThat(a.frames).hasSize(3);
		assertThat(a.frames.get(1)).as("the first attempt's frame is its argument's array").isSameAs(arg.array());
		assertThat(a.frames.get(2)).as("a retry's is a copy").isNotSameAs(arg.array());
		assertThat(a.chunks.get(2).tasks().get(0).id()).isEqualTo(ids);
		assertThat(ChunkFrame.decode(arg.array()).tasks().get(0).id()).as("the first frame as it was sent").isEqualTo(ids - 1);
		assertThat(a.chunks.get(2).tasks().get(0).arg()).isEqualTo(arg);
	}

	@Test
	void aLostWorkersPendingTasksFailNamingTaskAndWorkerAndOthersRunElsewhere() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(v -> { }, errors::add);
		assertThat(a.chunks).hasSize(1);
		FakeWorker b = new FakeWorker("b");
		dispatcher.lost(a.session, "it was killed");
		assertThat(errors).singleElement().isInstanceOfSatisfying(WorkerLostException.class, e -> {
			assertThat(e.task()).startsWith("element 1 of map(");
			assertThat(e.worker()).isEqualTo("a");
			assertThat(e).hasMessageContaining("it was killed");
		});
		// A late answer from the lost worker is dropped: nothing is answered twice.
		dispatcher.results(a.session, ResultsFrame.decode(new ResultsFrame(true, 1, List.of(Answer.of(1, new byte[0]))).encode()));
		assertThat(errors).hasSize(1);
		List<Object> results = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(results::add);
		assertThat(b.chunks).hasSize(1);
		b.answer(b.chunks.get(0));
		assertThat(results).containsExactly(2L);
	}

	@Test
	void cancelledQueuedTasksAreNeverSent() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		var second = submit(tasks).subscribe();
		second.dispose();
		assertThat(dispatcher.counters()[1]).isZero();
		a.answer(a.chunks.get(0));
		assertThat(a.chunks).hasSize(1);
	}

	@Test
	void aCompletionThatThrowsAnErrorLeavesTheOtherAnswersOfItsFrameDelivered() {
		FakeWorker a = new FakeWorker("a");
		List<Object> results = new CopyOnWriteArrayList<>();
		List<Task> batch = new ArrayList<>();
		for (int i = 0; i < 2; i++) {
			Mono.create(sink -> batch.add(new Task(++ids, function, java.nio.ByteBuffer.wrap(new byte[] {1}),
					new TaskName("map", ids, function), 1, 2, true, TaskSink.of(sink)))).subscribe(results::add);
		}
		failingCompletion = batch.get(0).id;
		dispatcher.submitAll(batch);
		assertThat(a.chunks).hasSize(1);
		assertThat(a.chunks.get(0).tasks()).hasSize(2);

		a.answer(a.chunks.get(0));
		assertThat(results).containsExactly(batch.get(1).id);
		assertThat(dispatcher.counters()[2]).as("in flight").isZero();
	}

	@Test
	void retriesJumpTheQueue() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		submit(tasks).subscribe();
		Task retry = new Task(99, function, null, new TaskName("map", 0, function), 2, 0, true, null);
		dispatcher.submit(retry);
		a.answer(a.chunks.get(0));
		assertThat(a.chunks.get(1).tasks().get(0).id()).isEqualTo(99);
	}

	@Test
	void terminateFailsWhatIsQueuedAndRunning() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(v -> { }, errors::add);
		submit(tasks).subscribe(v -> { }, errors::add);
		dispatcher.terminate("pool p was terminated");
		assertThat(errors).hasSize(2).allSatisfy(e -> assertThat(e).isInstanceOf(PoolClosedException.class)
				.hasMessageContaining("pool p was terminated"));
		submit(tasks).subscribe(v -> { }, errors::add);
		assertThat(errors).hasSize(3);
		assertThat(a.isDisposed()).isTrue();
	}
	@Test
	void aWorkerLostHoldingSeveralTasksIsChargedWithNoneAndEachRunsAloneUntilOneKillsItsWorkerAlone() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		// Once the function's duration is known, a short chunk may wait behind another.
		a.answer(a.chunks.get(0));
		List<Object> results = new CopyOnWriteArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(results::add, errors::add);
		submit(tasks).subscribe(results::add, errors::add);
		assertThat(a.chunks).as("one running, one prefetched").hasSize(3);

		// Its answer to task 2 may have died with it, unsent, and task 3 may have been what killed it.
		dispatcher.lost(a.session, "it was killed");
		assertThat(errors).as("nobody is charged when the killer is not known").isEmpty();
		assertThat(dispatcher.counters()[1]).as("queued again").isEqualTo(2);
		assertThat(dispatcher.counters()[6]).as("requeued").isEqualTo(2);

		FakeWorker b = new FakeWorker("b");
		assertThat(b.chunks).as("a suspect goes alone, and nothing is prefetched behind it").singleElement()
				.satisfies(chunk -> assertThat(chunk.tasks()).extracting(ChunkFrame.Task::id).containsExactly(2L));
		dispatcher.lost(b.session, "it was killed");
		assertThat(errors).as("alone, its worker's death is its own").singleElement().isInstanceOfSatisfying(WorkerLostException.class,
				e -> assertThat(e.task()).startsWith("element 2 of map("));
		assertThat(dispatcher.counters()[5]).as("attempts charged").isEqualTo(1);

		FakeWorker c = new FakeWorker("c");
		assertThat(c.chunks).singleElement().satisfies(chunk -> assertThat(chunk.tasks()).extracting(ChunkFrame.Task::id).containsExactly(3L));
		c.answer(c.chunks.get(0));
		assertThat(results).containsExactly(3L);
		assertThat(tasks).extracting(task -> task.attempt).as("no attempt used but the charged one's").containsOnly(1);
	}

	@Test
	void aRunningTasksCancelReachesItsWorkerOnceItHasRoomAndItsAnswerCountsNeitherWay() {
		List<Task> tasks = new ArrayList<>();
		List<Object> results = new CopyOnWriteArrayList<>();
		var first = submit(tasks, true, 2).subscribe(results::add);
		var second = submit(tasks, true, 2).subscribe(results::add);
		FakeWorker a = new FakeWorker("a");
		assertThat(a.chunks).singleElement().satisfies(chunk -> assertThat(chunk.tasks()).hasSize(2));

		first.dispose();
		assertThat(a.cancelled).as("told at once: the worker keeps room for it").containsExactly(tasks.get(0).id);
		second.dispose();
		assertThat(a.cancelled).as("no room for another frame yet").hasSize(1);
		a.request(1);
		assertThat(a.cancelled).containsExactly(tasks.get(0).id, tasks.get(1).id);

		// The worker answers the cancelled tasks (one interrupted, one that ended first): their callers hear nothing.
		dispatcher.results(a.session, ResultsFrame.decode(new ResultsFrame(true, 1_000, List.of(
				Answer.failure(tasks.get(0).id, "cancelled"), Answer.of(tasks.get(1).id, new byte[0]))).encode()));
		assertThat(results).isEmpty();
		long[] counters = dispatcher.counters();
		assertThat(counters[2]).as("in flight").isZero();
		assertThat(counters[3]).as("completed").isZero();
		assertThat(counters[4]).as("failed").isZero();
	}

	@Test
	void aWorkerStuckInATaskPastItsDeadlineFailsItWithATimeoutAndItsProcessesOtherTasksGoBackUncharged() {
		List<Task> tasks = new ArrayList<>();
		List<Object> results = new CopyOnWriteArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		FakeWorker a = new FakeWorker("a", "jvm1");
		FakeWorker b = new FakeWorker("b", "jvm1");
		for (int i = 0; i < 2; i++) {
			submit(tasks, true, 1).subscribe(results::add, errors::add);
		}
		assertThat(a.chunks).hasSize(1);
		assertThat(b.chunks).hasSize(1);
		long stuck = a.chunks.get(0).tasks().get(0).id();

		dispatcher.results(a.session, ResultsFrame.decode(new ResultsFrame(false, 0, List.of(Answer.failure(stuck, "late")), true).encode()));
		assertThat(errors).singleElement().isInstanceOfSatisfying(io.fiberjvm.pool.TaskTimeoutException.class,
				e -> assertThat(e).hasMessageContaining("did not stop").hasMessageContaining("element"));
		// The fleet then ends the process's sessions; the other task goes back as it was, not a suspect.
		dispatcher.gone(List.of(a.session, b.session), "its JVM was replaced");
		assertThat(errors).hasSize(1);
		assertThat(dispatcher.counters()[5]).as("charged").isZero();
		assertThat(tasks).filteredOn(task -> task.id != stuck).singleElement().satisfies(task -> assertThat(task.suspect).isFalse());

		FakeWorker c = new FakeWorker("c");
		c.answer(c.chunks.get(0));
		assertThat(results).hasSize(1);
	}

	@Test
	void whatAStuckWorkerHeldBehindItsStuckTaskNeverRanSoItGoesBackUncharged() {
		List<Task> tasks = new ArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks, true, 2).subscribe(v -> { }, errors::add);
		submit(tasks, true, 2).subscribe(v -> { }, errors::add);
		FakeWorker a = new FakeWorker("a");
		assertThat(a.chunks).singleElement().satisfies(chunk -> assertThat(chunk.tasks()).hasSize(2));

		dispatcher.results(a.session, ResultsFrame.decode(new ResultsFrame(false, 0, List.of(Answer.failure(tasks.get(0).id, "late")),
				true).encode()));
		dispatcher.gone(List.of(a.session), "its JVM was replaced");
		assertThat(errors).singleElement().isInstanceOf(io.fiberjvm.pool.TaskTimeoutException.class);
		assertThat(dispatcher.counters()[1]).as("queued again").isEqualTo(1);
		assertThat(dispatcher.counters()[5]).as("charged").isZero();
		assertThat(tasks.get(1).suspect).isFalse();
	}

	@Test
	void theTasksOfALostWorkersChunkThatWereAnsweredStayAnsweredAndTheRestRunAloneInTurn() {
		List<Task> tasks = new ArrayList<>();
		List<Object> results = new CopyOnWriteArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		for (int i = 0; i < 3; i++) {
			submit(tasks, true, 3).subscribe(results::add, errors::add);
		}
		FakeWorker a = new FakeWorker("a");
		assertThat(a.chunks).singleElement().satisfies(chunk -> assertThat(chunk.tasks()).hasSize(3));
		dispatcher.results(a.session, ResultsFrame.decode(new ResultsFrame(false, 0, List.of(Answer.of(1, new byte[0]))).encode()));
		dispatcher.lost(a.session, "it was killed");
		assertThat(errors).isEmpty();
		assertThat(results).containsExactly(1L);

		FakeWorker b = new FakeWorker("b");
		assertThat(b.chunks).singleElement().satisfies(chunk -> assertThat(chunk.tasks()).extracting(ChunkFrame.Task::id).containsExactly(2L));
		b.answer(b.chunks.get(0));
		assertThat(b.chunks).hasSize(2);
		assertThat(b.chunks.get(1).tasks()).extracting(ChunkFrame.Task::id).containsExactly(3L);
		b.answer(b.chunks.get(1));
		assertThat(results).containsExactly(1L, 2L, 3L);
		assertThat(errors).isEmpty();
	}

	@Test
	void aTaskThatMayNotRunTwiceGoesAloneToAnIdleWorkerThatThenTakesNothingElse() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		a.answer(a.chunks.get(0));
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks, false, 8).subscribe(v -> { }, errors::add);
		submit(tasks, false, 8).subscribe(v -> { }, errors::add);
		submit(tasks, true, 8).subscribe(v -> { }, errors::add);
		assertThat(a.chunks).as("the first alone, nothing prefetched behind it").hasSize(2);
		assertThat(a.chunks.get(1).tasks()).extracting(ChunkFrame.Task::id).containsExactly(2L);
		assertThat(dispatcher.counters()[1]).isEqualTo(2);

		dispatcher.lost(a.session, "it was killed");
		assertThat(errors).singleElement().isInstanceOfSatisfying(WorkerLostException.class,
				e -> assertThat(e.task()).startsWith("element 2 of map("));
		assertThat(dispatcher.counters()[1]).as("the others wait, uncharged").isEqualTo(2);
	}

	@Test
	void whileWorkersCannotStartAndNoneTakesTasksCallsFailWithWhy() {
		List<Task> tasks = new ArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(v -> { }, errors::add);
		WorkerStartException why = new WorkerStartException("p", 3, new IllegalStateException("no main class"));
		dispatcher.cannotStart(why, () -> true);
		assertThat(errors).singleElement().satisfies(e -> startFailure(e, why));
		submit(tasks).subscribe(v -> { }, errors::add);
		assertThat(errors).as("a new call fails at once").hasSize(2).allSatisfy(e -> startFailure(e, why));
		assertThat(errors.get(0)).as("each caller its own error").isNotSameAs(errors.get(1));
		assertThat(dispatcher.counters()[1]).isZero();

		FakeWorker a = new FakeWorker("a");
		List<Object> results = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(results::add, errors::add);
		submit(tasks).subscribe(results::add, errors::add);
		a.answer(a.chunks.get(0));
		assertThat(results).as("a worker started: calls run again").containsExactly(3L);

		// A failing start while a worker takes tasks changes nothing, even once that worker is gone: the fleet says it
		// again at its next failed start, and only then do the waiting calls fail.
		dispatcher.cannotStart(why, () -> true);
		submit(tasks).subscribe(results::add, errors::add);
		assertThat(a.chunks).as("task 4 running, task 5 prefetched").hasSize(3);
		assertThat(errors).hasSize(2);
		dispatcher.lost(a.session, "it was killed");
		assertThat(errors).hasSize(2);
		assertThat(dispatcher.counters()[1]).as("back in the queue, uncharged").isEqualTo(2);
		dispatcher.cannotStart(why, () -> true);
		assertThat(errors).hasSize(4).allSatisfy(e -> startFailure(e, why));
		assertThat(dispatcher.counters()[1]).isZero();
	}

	private static void startFailure(Throwable error, WorkerStartException why) {
		assertThat(error).isInstanceOf(WorkerStartException.class).hasMessage(why.getMessage()).hasCause(why.getCause());
	}

	@Test
	void aRetryHoldsItsWorkerAloneButNotTheOtherWorkersOfItsJvm() {
		FakeWorker a1 = new FakeWorker("a1", "a");
		FakeWorker a2 = new FakeWorker("a2", "a");
		Mono.create(sink -> dispatcher.submit(new Task(99, function, null, new TaskName("map", 0, function), 2, 0, true, TaskSink.of(sink))))
				.subscribe();
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		assertThat(a1.chunks.size() + a2.chunks.size()).as("the retry on one worker, the next task on the other").isEqualTo(2);
	}

	@Test
	void aStartFailureThatAWorkerAdmittedSinceMadeVoidFailsNothing() {
		List<Task> tasks = new ArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(v -> { }, errors::add);
		dispatcher.cannotStart(new WorkerStartException("p", 3, new IllegalStateException("no main class")), () -> false);
		assertThat(errors).isEmpty();
		assertThat(dispatcher.counters()[1]).isEqualTo(1);
	}

	@Test
	void aRetiredWorkerEndingWhileItsSiblingsHoldTasksLeavesThemChargeableAlone() {
		FakeWorker a1 = new FakeWorker("a1", "a");
		FakeWorker a2 = new FakeWorker("a2", "a");
		List<Task> tasks = new ArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		submit(tasks).subscribe(v -> { }, errors::add);
		assertThat(a1.chunks).hasSize(1);
		// a2 holds nothing and ends (retired, say): a1 is not marked, so its death is its own.
		dispatcher.gone(List.of(a2.session), "it ended its session");
		dispatcher.gone(List.of(a1.session), "it exited with code 137");
		assertThat(errors).singleElement().isInstanceOf(WorkerLostException.class);
	}

	@Test
	void workersOfOneProcessThatDieHoldingATaskEachAreChargedWithNoneAndASuspectRunsOnAProcessHoldingNothingElse() {
		List<Task> tasks = new ArrayList<>();
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		FakeWorker a1 = new FakeWorker("a1", "a");
		FakeWorker a2 = new FakeWorker("a2", "a");
		submit(tasks).subscribe(v -> { }, errors::add);
		submit(tasks).subscribe(v -> { }, errors::add);
		assertThat(a1.chunks).hasSize(1);
		assertThat(a2.chunks).hasSize(1);
		// The process died of one of the two tasks, whichever worker ran it.
		dispatcher.gone(List.of(a1.session, a2.session), "it exited with code 137");
		assertThat(errors).isEmpty();
		assertThat(dispatcher.counters()[6]).as("requeued").isEqualTo(2);

		FakeWorker b1 = new FakeWorker("b1", "b");
		FakeWorker b2 = new FakeWorker("b2", "b");
		assertThat(b1.chunks.size() + b2.chunks.size()).as("one suspect at a time in a process").isEqualTo(1);
		FakeWorker holder = b1.chunks.isEmpty() ? b2 : b1;
		dispatcher.gone(List.of(b1.session, b2.session), "it exited with code 137");
		assertThat(errors).singleElement().isInstanceOfSatisfying(WorkerLostException.class,
				e -> assertThat(e.worker()).isEqualTo(holder.session.worker));
	}

	@Test
	void aWorkerLostHoldingACancelledTaskAndAnotherIsChargedWithNeither() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		a.answer(a.chunks.get(0));
		List<Throwable> errors = new CopyOnWriteArrayList<>();
		var cancelled = submit(tasks).subscribe(v -> { }, errors::add);
		submit(tasks).subscribe(v -> { }, errors::add);
		assertThat(a.chunks).hasSize(3);
		// Its caller gave up on it, but it may still be what the worker was running when it died.
		cancelled.dispose();
		dispatcher.lost(a.session, "it was killed");
		assertThat(errors).isEmpty();
		assertThat(dispatcher.counters()[1]).as("the other one waits, uncharged").isEqualTo(1);
	}

	@Test
	void aSessionWhoseProcessExitedTakesNothingMoreAndKeepsWhatItsConnectionStillDelivers() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		try {
			FakeWorker a = new FakeWorker("a");
			List<Task> tasks = new ArrayList<>();
			List<Object> results = new CopyOnWriteArrayList<>();
			List<Throwable> errors = new CopyOnWriteArrayList<>();
			submit(tasks).subscribe(results::add, errors::add);
			ChunkFrame answered = a.chunks.get(0);
			a.answer(answered);
			submit(tasks).subscribe(results::add, errors::add);
			assertThat(a.chunks).hasSize(2);
			dispatcher.exited(List.of(a.session), "it exited with code 137");
			submit(tasks).subscribe(results::add, errors::add);
			assertThat(a.chunks).as("nothing more for a worker whose process exited").hasSize(2);
			assertThat(dispatcher.counters()[0]).as("taking").isZero();

			time.advanceTimeBy(Dispatcher.EXIT_DRAIN.minusMillis(1));
			assertThat(errors).isEmpty();
			time.advanceTimeBy(Duration.ofMillis(1));
			assertThat(errors).singleElement().isInstanceOfSatisfying(WorkerLostException.class,
					e -> assertThat(e).hasMessageContaining("element 2 of map(").hasMessageContaining("it exited with code 137"));
			FakeWorker b = new FakeWorker("b");
			b.answer(b.chunks.get(0));
			assertThat(results).containsExactly(1L, 3L);
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}
}
