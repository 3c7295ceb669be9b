package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.transport.Outbound;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker's runner: it writes a large result into the array of the last one once the transport let that go, and
 * runs each task under the watch of its deadline and its caller's cancel.
 */
class TaskRunnerTest {

	/** Set by a cancelled task's function as it starts, so the test cancels it while it runs. */
	static volatile CountDownLatch started = new CountDownLatch(1);
	/** Whether a stuck frame was sent, which a task that ignores interrupts waits for. */
	static volatile boolean reportedStuck;

	private static final int FRAME = 16 << 20;

	private final TaskCodec pool = new TaskCodec(new ShippedValues(List.of()), FRAME);
	private final TaskCodec codec = new TaskCodec(new ShippedValues(List.of()), FRAME);
	private final List<Outbound> sent = new CopyOnWriteArrayList<>();
	private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
	private final TaskWatch watch = new TaskWatch(Thread.currentThread(), deadlines, Duration.ofMillis(300), this::stuck);
	private final TaskRunner runner = new TaskRunner(codec, new TaskStreamer(codec, (route, frames) -> Flux.empty(), "streams/"),
			watch, "w1", sent::add, FRAME);

	private void stuck(long id, long timeoutNanos, boolean cancelled) {
		runner.stuck(id, timeoutNanos, cancelled);
		reportedStuck = true;
	}

	@AfterEach
	void stopTimer() {
		deadlines.shutdownNow();
	}

	/** The answers of every frame sent so far, in order. */
	private List<Answer> answers() {
		return sent.stream().flatMap(frame -> ResultsFrame.decode(frame.toArray()).answers().stream()).toList();
	}

	/** A chunk of tasks of {@code fn}, each task's argument its id, as the worker holds it once it arrived. */
	private ChunkFrame chunk(FiberFunction<Integer, Integer> fn, long timeoutNanos, long... ids) {
		ShippedFunction shipped = pool.ship(fn, fn.getClass());
		List<ChunkFrame.Task> tasks = new java.util.ArrayList<>();
		for (long id : ids) {
			tasks.add(new ChunkFrame.Task(id, ChunkFrame.argument(pool.values(), (int) id, "the argument")));
		}
		ChunkFrame chunk = new ChunkFrame(shipped.id, timeoutNanos, shipped.bytes, List.of(shipped.allow), tasks);
		watch.holding(chunk);
		return chunk;
	}

	/** A thread, started, that cancels task {@code id} once a task has {@link #started}. */
	private Thread cancelOnceStarted(long id) {
		Thread canceller = new Thread(() -> {
			try {
				if (started.await(30, TimeUnit.SECONDS)) {
					watch.cancel(List.of(id));
				}
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		});
		canceller.start();
		return canceller;
	}

	private static String error(Answer answer) {
		return RemoteException.decode(answer.error()).getMessage();
	}

	@Test
	void aTaskPastItsDeadlineIsInterruptedAndAnsweredAsTimedOutAndTheNextRunsUninterrupted() {
		FiberFunction<Integer, Integer> sleeps = x -> {
			if (x == 1) {
				try {
					// Waits for its interrupt, a minute at most.
				new CountDownLatch(1).await(60, java.util.concurrent.TimeUnit.SECONDS);
				}
				catch (InterruptedException e) {
					throw new IllegalStateException("interrupted", e);
				}
			}
			return Thread.currentThread().isInterrupted() ? -1 : 1;
		};
		runner.run(chunk(sleeps, TimeUnit.MILLISECONDS.toNanos(100), 1, 2));
		List<Answer> answers = answers();
		assertThat(answers).hasSize(2);
		assertThat(answers.get(0).failed()).isTrue();
		assertThat(RemoteException.decode(answers.get(0).error()).remoteType()).isEqualTo(TaskWatch.DeadlinePassed.class.getName());
		assertThat(answers.get(1).failed()).isFalse();
		assertThat(answers.get(1).result(codec.values(), "the result")).as("no interrupt reached the next task").isEqualTo(1);
		assertThat(Thread.currentThread().isInterrupted()).as("no interrupt is left over").isFalse();
		assertThat(sent).noneMatch(frame -> ResultsFrame.decode(frame.toArray()).stuck());
	}

	@Test
	void aTaskThatIgnoresItsInterruptIsReportedStuckOnceAndTheWorkerRunsNothingMore() {
		reportedStuck = false;
		FiberFunction<Integer, Integer> spinsOnSeven = x -> {
			while (x == 7 && !reportedStuck) {
				Thread.onSpinWait();
			}
			return x;
		};
		runner.run(chunk(spinsOnSeven, TimeUnit.MILLISECONDS.toNanos(50), 6, 7, 8));
		Thread.interrupted();
		runner.run(chunk(x -> x, 0, 9));
		assertThat(sent).as("one frame: the report, and nothing runs after it").hasSize(1);
		ResultsFrame results = ResultsFrame.decode(sent.get(0).toArray());
		assertThat(results.stuck()).isTrue();
		assertThat(results.answers()).as("the answer made before it goes with it").extracting(Answer::id).containsExactly(6L, 7L);
		assertThat(results.answers().get(1)).satisfies(answer -> {
			assertThat(RemoteException.decode(answer.error()).remoteType()).isEqualTo(TaskWatch.DeadlinePassed.class.getName());
			assertThat(error(answer)).contains("did not stop");
		});
	}

	@Test
	void aCancelledTaskThatIgnoresItsInterruptIsReportedStuckToo() {
		reportedStuck = false;
		started = new CountDownLatch(1);
		FiberFunction<Integer, Integer> deaf = x -> {
			started.countDown();
			while (!reportedStuck) {
				Thread.onSpinWait();
			}
			return 1;
		};
		ChunkFrame chunk = chunk(deaf, 0, 5);
		Thread canceller = cancelOnceStarted(5);
		runner.run(chunk);
		Thread.interrupted();
		assertThat(answers()).singleElement().satisfies(answer -> assertThat(error(answer)).contains("cancelled while it ran")
				.contains("did not stop"));
		assertThat(ResultsFrame.decode(sent.get(0).toArray()).stuck()).isTrue();
	}

	@Test
	void aTaskCancelledBeforeItStartsIsAnsweredWithoutRunningAndOneCancelledWhileItRunsIsInterrupted() throws Exception {
		started = new CountDownLatch(1);
		FiberFunction<Integer, Integer> waits = x -> {
			started.countDown();
			try {
				// Waits for its interrupt, a minute at most.
				new CountDownLatch(1).await(60, java.util.concurrent.TimeUnit.SECONDS);
				return 1;
			}
			catch (InterruptedException e) {
				return -1;
			}
		};
		ChunkFrame chunk = chunk(waits, 0, 3, 4);
		watch.cancel(List.of(3L, 99L));
		Thread canceller = cancelOnceStarted(4);
		runner.run(chunk);
		canceller.join();
		List<Answer> answers = answers();
		assertThat(answers).extracting(Answer::id).containsExactly(3L, 4L);
		assertThat(answers).allSatisfy(answer -> assertThat(RemoteException.decode(answer.error()).remoteType())
				.isEqualTo(java.util.concurrent.CancellationException.class.getName()));
		assertThat(error(answers.get(0))).contains("before it started");
		assertThat(error(answers.get(1))).contains("while it ran");
		// A cancel of a task this worker does not hold (its answer crossed the cancel) is dropped, not kept.
		runner.run(chunk(x -> x * 2, 0, 99));
		assertThat(answers().get(2).result(codec.values(), "the result")).isEqualTo(198);
	}

	@Test
	void aLargeResultsArrayIsWrittenOverOnlyOnceTheTransportLetTheLastFrameGo() {
		FiberFunction<double[], double[]> twice = v -> {
			double[] out = v.clone();
			for (int i = 0; i < out.length; i++) {
				out[i] *= 2;
			}
			return out;
		};
		ShippedFunction shipped = pool.ship(twice, twice.getClass());
		double[] value = new double[300_000];
		value[7] = 3;
		runner.run(new ChunkFrame(shipped.id, shipped.bytes, List.of(shipped.allow), List.of(new ChunkFrame.Task(1, null, value))));
		runner.run(new ChunkFrame(shipped.id, null, List.of(), List.of(new ChunkFrame.Task(2, null, value))));
		assertThat(sent).hasSize(2);
		byte[] first = sent.get(0).toArray();
		assertThat(sent.get(1).toArray()).as("the first frame is not let go yet").isNotSameAs(first);

		sent.get(0).released();
		runner.run(new ChunkFrame(shipped.id, null, List.of(), List.of(new ChunkFrame.Task(3, null, value))));
		byte[] third = sent.get(2).toArray();
		assertThat(third).as("written into the array let go").isSameAs(first);
		ResultsFrame results = ResultsFrame.decode(third);
		assertThat(results.answers()).singleElement().satisfies(answer -> {
			assertThat(answer.id()).isEqualTo(3);
			assertThat((double[]) answer.result(codec.values(), "the result")).containsExactly(twice.apply(value));
		});
	}
}
