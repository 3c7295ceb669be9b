package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;

/**
 * Tasks of one function, from a pool to one worker. The function's bytes travel only the first time the
 * worker sees it (a worker keeps recently used functions, and its pool keeps a twin of that cache); the
 * allow-list patterns name the packages the worker may read this chunk's function from.
 *
 * @param functionId the id the worker caches the function under
 * @param timeoutNanos how long each task may run before the worker interrupts it, or 0 for no limit
 * @param function the Java-serialized function, or null when the worker holds it
 * @param allow patterns naming one package or class each
 * @param tasks the tasks, in the order they run
 */
public record ChunkFrame(long functionId, long timeoutNanos, byte @Nullable [] function, List<String> allow, List<Task> tasks)
		implements WorkerOrder {

	public ChunkFrame {
		if (timeoutNanos < 0) {
			throw new IllegalArgumentException("a task timeout of " + timeoutNanos + " ns must not be negative");
		}
	}

	/** A chunk whose tasks may run as long as they take. */
	public ChunkFrame(long functionId, byte @Nullable [] function, List<String> allow, List<Task> tasks) {
		this(functionId, 0, function, allow, tasks);
	}

	/**
	 * One task of a chunk. A task read from a frame holds a view of the frame's bytes, not a copy; or, when its
	 * frame was read as it arrived ({@link #reader}), the argument itself, which no task sent holds.
	 *
	 * @param id the task attempt's id, which its answer carries
	 * @param arg the argument's bytes, null for a null argument or one already read
	 * @param decoded the argument already read, or null
	 */
	public record Task(long id, @Nullable ByteBuffer arg, @Nullable Object decoded) {

		public Task {
			if (arg != null && decoded != null) {
				throw new IllegalArgumentException("a task holds its argument's bytes or the argument read, not both");
			}
		}

		/** A task whose argument is {@code arg}'s bytes. */
		public Task(long id, @Nullable ByteBuffer arg) {
			this(id, arg, null);
		}

		/** A task whose argument is {@code arg}'s bytes. */
		public static Task of(long id, byte @Nullable [] arg) {
			return new Task(id, arg == null ? null : ByteBuffer.wrap(arg));
		}

		/** The argument: the one already read, or what {@code values} reads from its bytes. */
		public @Nullable Object argument(ShippedValues values, Object what) {
			return decoded != null ? decoded : values.read(arg, what);
		}

		/** The argument's bytes to send; a task read as it arrived has none. */
		@Nullable ByteBuffer sent() {
			if (decoded != null) {
				throw new IllegalStateException("a chunk read as it arrived has no bytes to send on");
			}
			return arg;
		}
	}

	/** The bytes of the head that say its size: the header, then where a sole task's argument starts. */
	static final int PREFIX = FrameHeaderCodec.SIZE + 4;

	/** The bytes in front of the argument of a chunk's sole task when the worker holds the function. */
	static final int ROOM = room(null, List.of());

	/** The bytes in front of a sole task's argument in a chunk carrying {@code function} and {@code patterns}. */
	private static int room(byte @Nullable [] function, List<byte[]> patterns) {
		return PREFIX + 8 + 8 + FrameWriter.sizeOf(function) + FrameWriter.sizeOf(patterns) + 4 + 8 + 4;
	}

	/**
	 * The bytes of a task's argument, written so that a large one, alone in a chunk whose function the worker
	 * holds, becomes that chunk's frame without being copied ({@link ShippedValues#writeAfter}; the head of its
	 * array is written over each time); refused as {@link ShippedValues#write} refuses it.
	 */
	public static @Nullable ByteBuffer argument(ShippedValues values, @Nullable Object arg, Object what) {
		return values.writeAfter(ROOM, arg, what);
	}

	public byte[] encode() {
		if (function == null && allow.isEmpty() && tasks.size() == 1) {
			Task sole = tasks.get(0);
			ByteBuffer arg = sole.sent();
			FrameWriter head = FrameWriter.inFront(FrameKind.CHUNK, 0, arg, ROOM);
			if (head != null && arg != null) {
				return head.putInt(ROOM).putLong(functionId).putLong(timeoutNanos).putBytes((byte[]) null).putTexts(List.of()).putInt(1)
						.putLong(sole.id()).putInt(arg.remaining()).array();
			}
		}
		List<byte[]> patterns = FrameWriter.utf8(allow);
		int size = 4 + 8 + 8 + FrameWriter.sizeOf(function) + FrameWriter.sizeOf(patterns) + 4;
		for (Task task : tasks) {
			size += 8 + FrameWriter.sizeOf(task.sent());
		}
		FrameWriter out = FrameWriter.of(FrameKind.CHUNK, 0, size)
				.putInt(room(function, patterns))
				.putLong(functionId)
				.putLong(timeoutNanos)
				.putBytes(function)
				.putTexts(patterns)
				.putInt(tasks.size());
		for (Task task : tasks) {
			out.putLong(task.id()).putBytes(task.sent());
		}
		return out.array();
	}

	/**
	 * Reads chunks where the transport received them: a large argument alone in a chunk, an array of numbers or bytes,
	 * goes straight into its array, whether the chunk carries its function or not; any other chunk is {@link #decode}d.
	 */
	public static InboundReader<ChunkFrame> reader(ShippedValues values) {
		return new SoleValueReader<>(values, PREFIX,
				first -> first.get(0) == FrameKind.CHUNK.code() ? first.getInt(FrameHeaderCodec.SIZE) : -1, ChunkFrame::sole,
				ChunkFrame::decode);
	}

	/** What makes a chunk of one task from its argument, if {@code head} is the head of one of {@code valueBytes}. */
	static @Nullable Function<Object, ChunkFrame> sole(ByteBuffer head, int valueBytes) {
		byte[] bytes = new byte[head.remaining()];
		head.get(bytes);
		try {
			FrameReader in = FrameReader.open(bytes, FrameKind.CHUNK);
			in.readInt();
			long functionId = in.readLong();
			long timeout = in.readLong();
			byte[] function = in.readBytes();
			List<String> allow = in.readTexts("patterns");
			if (timeout < 0 || in.readInt() != 1) {
				return null;
			}
			long id = in.readLong();
			if (in.readInt() != valueBytes || in.remaining() != 0) {
				return null;
			}
			return arg -> new ChunkFrame(functionId, timeout, function, allow, List.of(new Task(id, null, arg)));
		}
		catch (CodecException notOne) {
			// Decoding it whole refuses it, with the words a malformed chunk gets.
			return null;
		}
	}

	public static ChunkFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.CHUNK);
		int room = in.readInt();
		long functionId = in.readLong();
		long timeout = in.readLong();
		if (timeout < 0) {
			throw in.malformed("its task timeout is " + timeout + " ns");
		}
		byte[] function = in.readBytes();
		List<String> allow = in.readTexts("patterns");
		if (room != in.position() + 16) {
			throw in.malformed("its head says " + room + " bytes where its fields take " + (in.position() + 16));
		}
		// Each task takes at least its id and its argument's length.
		int n = in.count("tasks", 12);
		List<Task> tasks = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			tasks.add(new Task(in.readLong(), in.readSlice()));
		}
		in.end();
		return new ChunkFrame(functionId, timeout, function, allow, tasks);
	}
}
