package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.WorkerLostException;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatcher's scheduling and pending table, with sessions that are plain Reactor subscribers. */
class DispatcherTest {

	private final List<String> working = new CopyOnWriteArrayList<>();
	private final Dispatcher dispatcher = new Dispatcher(1 << 19, (task, outcome) -> {
		if (outcome.error() != null) {
			task.sink.error(outcome.error());
		}
		else {
			task.sink.success(outcome.answer().id());
		}
	}, working::add);
	private final ShippedFunction function = new ShippedFunction((FiberFunction<Integer, Integer>) x -> x, FiberFunction.class,
			new ShippedValues(List.of()));

	/** A worker's side: it holds what it was sent and asks for {@code credit} chunks up front. */
	private final class FakeWorker extends BaseSubscriber<byte[]> {
		final List<ChunkFrame> chunks = new CopyOnWriteArrayList<>();
		final List<byte[]> frames = new CopyOnWriteArrayList<>();
		WorkerSession session;

		FakeWorker(String name) {
			Flux.<byte[]>create(sink -> {
				session = dispatcher.open(name, sink);
				sink.onRequest(n -> dispatcher.credit());
			}, FluxSink.OverflowStrategy.ERROR).subscribe(this);
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			subscription.request(2);
		}

		@Override
		protected void hookOnNext(byte[] frame) {
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
		return Mono.create(sink -> {
			Task task = new Task(++ids, function, java.nio.ByteBuffer.wrap(new byte[] {1}), new TaskName("map", ids, function), 1, 0, TaskSink.of(sink));
			into.add(task);
			sink.onCancel(() -> dispatcher.cancel(task));
			dispatcher.submit(task);
		});
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

		assertThat(working).isEmpty();
		a.answer(a.chunks.get(0));
		assertThat(results).containsExactly(1L);
		assertThat(working).as("told once, at the first chunk").containsExactly("a");
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
			Mono.create(sink -> dispatcher.submit(new Task(++ids, function, arg, new TaskName("map", ids, function), n, 0,
					TaskSink.of(sink)))).subscribe();
		}
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
	void retriesJumpTheQueue() {
		FakeWorker a = new FakeWorker("a");
		List<Task> tasks = new ArrayList<>();
		submit(tasks).subscribe();
		submit(tasks).subscribe();
		Task retry = new Task(99, function, null, new TaskName("map", 0, function), 2, 0, null);
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
}
