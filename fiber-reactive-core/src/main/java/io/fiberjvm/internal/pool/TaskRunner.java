package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.transport.Outbound;

/**
 * Runs a worker's chunks, one task after another (a streaming task's elements going up as it runs), and sends their answers in frames of about half a frame of
 * answers (a larger answer alone: the transport fragments it).
 * It keeps the functions it was sent, as its pool's twin of the cache expects. Each task runs under the
 * {@link TaskWatch}: one cancelled before it starts is answered as cancelled without running, and one interrupted
 * because its caller cancelled it or its deadline passed is answered so.
 */
final class TaskRunner {

	private final TaskCodec codec;
	private final TaskStreamer streamer;
	private final TaskWatch watch;
	/** The worker's name, as its errors give it. */
	private final String worker;
	/** Set once the watch reported a task stuck: the pool replaces this JVM, and the worker runs nothing more. */
	private volatile boolean stuck;
	/** Guards the answers of the running chunk not sent yet, which a stuck report sends with its own. */
	private final Object sending = new Object();
	private List<Answer> unsent = new ArrayList<>();
	private long unsentBytes;
	private final Consumer<Outbound> send;
	private final int frameBudget;
	/** Each function, or the error that keeps it from this worker. */
	private final FunctionCache<Object> functions = new FunctionCache<>();

	TaskRunner(TaskCodec codec, TaskStreamer streamer, TaskWatch watch, String worker, Consumer<Outbound> send, int maxFrameSize) {
		this.codec = codec;
		this.streamer = streamer;
		this.watch = watch;
		this.worker = worker;
		this.send = send;
		this.frameBudget = Math.max(1024, maxFrameSize / 2);
	}

	@SuppressWarnings("unchecked")
	void run(ChunkFrame chunk) {
		if (stuck) {
			// Its JVM is being replaced: whatever it ran now could run again elsewhere.
			return;
		}
		try {
			runTasks(chunk);
		}
		finally {
			watch.ended(chunk);
		}
	}

	private void runTasks(ChunkFrame chunk) {
		Object function = function(chunk);
		long start = System.nanoTime();
		for (ChunkFrame.Task task : chunk.tasks()) {
			Answer answer = watched(function, task, chunk.timeoutNanos());
			if (answer == null) {
				// Reported stuck: the report carries what was not sent, and nothing more runs here.
				stuck = true;
				return;
			}
			synchronized (sending) {
				if (stuck) {
					discarding(answer, null);
					return;
				}
				int size = answer.valueBytes() + 16;
				if (!unsent.isEmpty() && unsentBytes + size > frameBudget) {
					send(new ResultsFrame(false, 0, takeUnsent()));
				}
				unsent.add(answer);
				unsentBytes += size;
			}
		}
		synchronized (sending) {
			if (!stuck) {
				send(new ResultsFrame(true, System.nanoTime() - start, takeUnsent()));
			}
		}
	}

	/** Under {@code sending}: the answers not sent yet, which are then none. */
	private List<Answer> takeUnsent() {
		List<Answer> taken = unsent;
		unsent = new ArrayList<>();
		unsentBytes = 0;
		return taken;
	}

	/**
	 * Runs {@code task} under the watch, which covers the function and not the encoding of what it returned; null
	 * when the watch answered it already (its worker is stuck). A streaming task has no deadline, and the pool
	 * cancels it through its stream rather than by interrupting it.
	 */
	@SuppressWarnings("unchecked")
	private @Nullable Answer watched(Object function, ChunkFrame.Task task, long timeoutNanos) {
		if (!watch.start(task.id(), function instanceof StreamingFunction ? 0 : timeoutNanos)) {
			return codec.failure(task.id(), new CancellationException("task " + task.id() + " was cancelled before it started"));
		}
		if (!(function instanceof StreamingFunction) && !(function instanceof Function<?, ?>)) {
			watch.end();
			return codec.failure(task.id(), (Throwable) function);
		}
		Answer answer = null;
		@Nullable Object result = null;
		Throwable failure = null;
		TaskWatch.End ended;
		try {
			if (function instanceof StreamingFunction streaming) {
				answer = streamer.stream(streaming, task);
			}
			else {
				result = ((Function<@Nullable Object, @Nullable Object>) function).apply(codec.readArgument(task));
			}
		}
		catch (OutOfMemoryError | InternalError fatal) {
			// The process is not to be trusted after these; the pool sees it die. A stack overflow is the task's own.
			throw fatal;
		}
		catch (Throwable error) {
			failure = error;
		}
		finally {
			ended = watch.end();
		}
		return switch (ended) {
			case RAN -> answer != null ? answer : encoded(task.id(), result, failure);
			case CANCELLED -> discarding(answer, codec.failure(task.id(),
					new CancellationException("task " + task.id() + " was cancelled while it ran")));
			case TIMED_OUT -> discarding(answer, timedOut(task.id(), timeoutNanos, "it was interrupted and stopped"));
			case STUCK -> discarding(answer, null);
		};
	}

	/** The answer carrying {@code result}, or {@code failure}; a result that cannot be encoded is the task's failure. */
	private Answer encoded(long id, @Nullable Object result, @Nullable Throwable failure) {
		if (failure != null) {
			return codec.failure(id, failure);
		}
		try {
			return codec.result(id, result);
		}
		catch (OutOfMemoryError | InternalError fatal) {
			throw fatal;
		}
		catch (Throwable error) {
			return codec.failure(id, error);
		}
	}

	/** {@code instead}, once the arrays of {@code answer}, which it replaces, went back to the codec. */
	private @Nullable Answer discarding(@Nullable Answer answer, @Nullable Answer instead) {
		if (answer != null && !answer.failed()) {
			codec.giveBack(answer.value());
		}
		return instead;
	}

	/**
	 * From the watch's timer: task {@code id}, interrupted for its deadline or because its caller {@code cancelled} it,
	 * did not stop within its grace. Its answer says so, in a frame that asks the pool to replace this worker's JVM,
	 * since the task's thread cannot be stopped; the worker runs nothing more.
	 */
	void stuck(long id, long timeoutNanos, boolean cancelled) {
		String what = "it did not stop within task-timeout-grace of being interrupted, so its worker's JVM is replaced";
		Answer answer = cancelled ? codec.failure(id, new CancellationException("task " + id + " was cancelled while it ran; " + what))
				: timedOut(id, timeoutNanos, what);
		synchronized (sending) {
			stuck = true;
			// The chunk's answers made before it go too: the pool puts back only what never ran.
			List<Answer> answers = takeUnsent();
			answers.add(answer);
			send(new ResultsFrame(false, 0, answers, true));
		}
	}

	/** The answer to task {@code id}, which ran past its deadline of {@code timeoutNanos}; {@code what} says what came of it. */
	Answer timedOut(long id, long timeoutNanos, String what) {
		return codec.failure(id, new TaskWatch.DeadlinePassed("task " + id + " ran past its deadline of " + Duration.ofNanos(timeoutNanos)
				+ " on worker " + worker + ": " + what));
	}

	/**
	 * Sends {@code results}; the arrays of their values go back to the codec for the next results of their size once
	 * nothing reads them: at once when the frame is a copy, else when the transport lets the frame go.
	 */
	private void send(ResultsFrame results) {
		send.accept(Answer.outbound(results.encode(), results.answers(), codec::giveBack));
	}

	/** The chunk's function: read from it the first time, else from the cache. */
	private Object function(ChunkFrame chunk) {
		if (chunk.function() == null) {
			Object known = functions.get(chunk.functionId());
			return known != null ? known : new IllegalStateException("function " + chunk.functionId() + " was never shipped to this worker");
		}
		Object function;
		try {
			function = codec.readFunction(chunk.function(), chunk.allow());
		}
		catch (OutOfMemoryError | InternalError fatal) {
			throw fatal;
		}
		catch (Throwable e) {
			// A class that cannot load or initialize here, say. Kept in the cache as the error, so the
			// parent's twin of the cache stays true, and every task of the function fails with it.
			function = e;
		}
		functions.put(chunk.functionId(), function);
		return function;
	}
}
