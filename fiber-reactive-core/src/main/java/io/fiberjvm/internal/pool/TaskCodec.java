package io.fiberjvm.internal.pool;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.LargeDecoding;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.pool.TaskFailedException;
import io.fiberjvm.pool.TaskTimeoutException;

/**
 * How a pool's tasks travel, on both sides: its functions (serialized once per function object), each
 * argument out and each result back, up to {@code max-value-size} (a function and its argument together); errors
 * are cut to fit a frame. The pool writes functions and arguments
 * and reads answers; a worker reads functions and arguments and writes answers.
 */
final class TaskCodec {

	private final ShippedValues values;
	/** The most bytes of arguments one chunk carries, unless one argument alone is larger. */
	private final int chunkBytes;
	/** The most bytes of an error a worker sends. */
	private final int maxError;
	private final Map<Object, ShippedFunction> functions = Collections.synchronizedMap(new WeakHashMap<>());
	/** Two-argument functions, keyed by the user's function, shipped inside their wrapper. */
	private final Map<Object, ShippedFunction> pairs = Collections.synchronizedMap(new WeakHashMap<>());
	/** Functions whose results stream, keyed by the user's function, shipped inside a {@link StreamingFunction}. */
	private final Map<Object, ShippedFunction> streams = Collections.synchronizedMap(new WeakHashMap<>());

	TaskCodec(ShippedValues values, int maxFrameSize) {
		this.values = values;
		this.chunkBytes = Math.max(1024, maxFrameSize / 2);
		this.maxError = Math.max(512, Math.min(maxFrameSize - 4096, 64 * 1024));
	}

	/** The run's codec, which a streaming task's elements travel through. */
	ShippedValues values() {
		return values;
	}

	/** The most bytes of arguments one chunk carries, unless one argument alone is larger. */
	int chunkBytes() {
		return chunkBytes;
	}

	// ---- the pool's side ----

	/** The function, serialized once per function object; fails naming it when it cannot travel. */
	ShippedFunction ship(Serializable function, Class<?> userClass) {
		return ship(functions, function, function, userClass);
	}

	/** {@code wrapper}, serialized once per user function {@code key}, so its timing carries over between calls. */
	ShippedFunction shipPair(Object key, Serializable wrapper) {
		return ship(pairs, key, wrapper, key.getClass());
	}

	/** {@code function} as {@code flatMap} ships it: its result is streamed back element by element. */
	ShippedFunction shipStream(FiberFunction<?, ?> function) {
		return ship(streams, function, new StreamingFunction(function), function.getClass());
	}

	private ShippedFunction ship(Map<Object, ShippedFunction> cache, Object key, Serializable function, Class<?> userClass) {
		synchronized (cache) {
			ShippedFunction known = cache.get(key);
			if (known == null) {
				known = new ShippedFunction(function, userClass, values);
				cache.put(key, known);
			}
			return known;
		}
	}

	/**
	 * {@code arg}'s bytes, a large one with room in front for its chunk's frame; refused when another process could
	 * not read it, or it is over {@code max-value-size}.
	 */
	@Nullable ByteBuffer argument(@Nullable Object arg, TaskName task) {
		ByteBuffer bytes = ChunkFrame.argument(values, arg, new Object() {
			@Override
			public String toString() {
				return "the argument of task " + task;
			}
		});
		// The function travels with an argument the first time a worker sees it: together they must fit a message.
		values.checkTogether((long) task.function().bytes.length + (bytes == null ? 0 : bytes.remaining()),
				new Object() {
					@Override
					public String toString() {
						return "the argument of task " + task + " and its function";
					}
				});
		return bytes;
	}

	/** Completes a task's caller from its attempt's outcome: the result read back, the remote error, or the loss. */
	void complete(Task task, Outcome outcome) {
		try {
			Answer answer = outcome.answer();
			if (answer == null) {
				task.sink.error(outcome.error() != null ? outcome.error()
						: new IllegalStateException(task + " ended with neither an answer nor an error"));
				return;
			}
			if (answer.failed()) {
				RemoteException remote = RemoteException.decode(answer.error());
				// Only the worker's watch times a task out; a TaskTimeoutException the function threw is its own failure.
				task.sink.error(TaskWatch.DeadlinePassed.class.getName().equals(remote.remoteType())
						? new TaskTimeoutException(task.toString(), outcome.worker(), Duration.ofNanos(task.timeoutNanos),
								"it was interrupted and stopped", remote)
						: new TaskFailedException(task.toString(), outcome.worker(), remote));
				return;
			}
			// A result that cannot be read, or whose class cannot initialize here, fails its own caller only.
			LargeDecoding.run(answer.value(), () -> {
				// A caller that cancelled while a large result waited to be decoded would discard it.
				if (!task.cancelled) {
					Object result = answer.result(values, new Object() {
						// Written out only in an error: building it for every result costs more than decoding a small one.
						@Override
						public String toString() {
							return "the result of " + task;
						}
					});
					if (task.attempt == 1 && task.stream == null) {
						// Its only attempt succeeded, so none follows; the worker had all of the argument, so no frame of it is left to write.
						values.giveBack(task.arg);
					}
					task.sink.success(result);
				}
			}, task.sink::error);
		}
		catch (Throwable e) {
			// A remote error that cannot be read fails its own caller only, too; its caller hears of any error, so
			// none is left waiting, and only one the JVM cannot go on after goes further.
			task.sink.error(e);
			if (e instanceof VirtualMachineError fatal) {
				throw fatal;
			}
		}
	}

	// ---- a worker's side ----

	/** A function a chunk carries. */
	@SuppressWarnings("unchecked")
	Function<@Nullable Object, @Nullable Object> readFunction(byte[] bytes, List<String> allow) {
		return values.readFunction(bytes, allow, Function.class, "the pool's function");
	}

	@Nullable Object readArgument(ChunkFrame.Task task) {
		return task.argument(values, "the argument");
	}

	/**
	 * The answer carrying {@code result}, a large one with room in front for a results frame of its own; a result
	 * that cannot travel is the task's failure.
	 */
	Answer result(long id, @Nullable Object result) {
		return ResultsFrame.answer(id, values, result, "the result");
	}

	/** Takes back the array {@link #result} wrote a value into, once nothing reads it any more. */
	void giveBack(@Nullable ByteBuffer value) {
		values.giveBack(value);
	}

	/** The answer carrying {@code error}, cut to fit a frame. */
	Answer failure(long id, Throwable error) {
		return Answer.failure(id, RemoteException.encode(error, maxError));
	}
}
