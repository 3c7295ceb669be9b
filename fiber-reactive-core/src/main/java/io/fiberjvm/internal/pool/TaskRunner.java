package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;
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
 * It keeps the functions it was sent, as its pool's twin of the cache expects.
 */
final class TaskRunner {

	private final TaskCodec codec;
	private final TaskStreamer streamer;
	private final Consumer<Outbound> send;
	private final int frameBudget;
	/** Each function, or the error that keeps it from this worker. */
	private final FunctionCache<Object> functions = new FunctionCache<>();

	TaskRunner(TaskCodec codec, TaskStreamer streamer, Consumer<Outbound> send, int maxFrameSize) {
		this.codec = codec;
		this.streamer = streamer;
		this.send = send;
		this.frameBudget = Math.max(1024, maxFrameSize / 2);
	}

	@SuppressWarnings("unchecked")
	void run(ChunkFrame chunk) {
		Object function = function(chunk);
		List<Answer> answers = new ArrayList<>();
		long bytes = 0;
		long start = System.nanoTime();
		for (ChunkFrame.Task task : chunk.tasks()) {
			Answer answer;
			if (function instanceof StreamingFunction streaming) {
				answer = streamer.stream(streaming, task);
			}
			else if (function instanceof Function<?, ?> fn) {
				answer = runOne((Function<@Nullable Object, @Nullable Object>) fn, task);
			}
			else {
				answer = codec.failure(task.id(), (Throwable) function);
			}
			int size = answer.valueBytes() + 16;
			if (!answers.isEmpty() && bytes + size > frameBudget) {
				send(new ResultsFrame(false, 0, answers));
				answers = new ArrayList<>();
				bytes = 0;
			}
			answers.add(answer);
			bytes += size;
		}
		send(new ResultsFrame(true, System.nanoTime() - start, answers));
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

	private Answer runOne(Function<@Nullable Object, @Nullable Object> fn, ChunkFrame.Task task) {
		try {
			return codec.result(task.id(), fn.apply(codec.readArgument(task)));
		}
		catch (OutOfMemoryError | InternalError fatal) {
			// The process is not to be trusted after these; the pool sees it die. A stack overflow is the task's own.
			throw fatal;
		}
		catch (Throwable error) {
			return codec.failure(task.id(), error);
		}
	}
}
