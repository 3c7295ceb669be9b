package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;

/**
 * A call on an object a manager hosts (or, with id and object 0, on a shared object): create it, or call
 * one of its methods. The mode travels in the header's flags; then where a sole argument's bytes start, so that a
 * reader knows the size of the head in front of them ({@link #reader}).
 *
 * @param mode what the call does
 * @param id the call's id, which its answer carries
 * @param object the object's number in its manager
 * @param timeoutNanos how long the call may run before the manager interrupts it, in nanoseconds; 0 for no limit
 * @param name the implementation class for {@link Mode#CREATE}, else the method or operation
 * @param parameterTypes the method's parameter type names, which pick it among overloads
 * @param args each argument's bytes, null for a null argument; read from a frame, each is a view of it, not a copy
 * @param decoded the sole argument already read as its frame arrived (its bytes then null), or null
 */
public record CallFrame(Mode mode, long id, long object, long timeoutNanos, String name, List<String> parameterTypes,
		List<@Nullable ByteBuffer> args, @Nullable Object decoded) {

	/** What a call does. */
	public enum Mode {
		/** Calls a method whose result is one value. */
		CALL,
		/** Calls a method whose result is a sequence, sent back as a list. */
		CALL_MANY,
		/** Creates the object, with {@code name} its class. */
		CREATE
	}

	/** The bytes of the head that say its size: the header, then where a sole argument's bytes start. */
	private static final int PREFIX = FrameHeaderCodec.SIZE + 4;

	public CallFrame {
		if (timeoutNanos < 0) {
			throw new IllegalArgumentException("a call's timeout is 0 (none) or positive, not " + timeoutNanos);
		}
		if (decoded != null && (args.size() != 1 || args.get(0) != null)) {
			throw new IllegalArgumentException("a call read as it arrived has one argument, already read");
		}
	}

	/** A call with no deadline, carrying its arguments' bytes. */
	public CallFrame(Mode mode, long id, long object, String name, List<String> parameterTypes, List<@Nullable ByteBuffer> args) {
		this(mode, id, object, 0, name, parameterTypes, args, null);
	}

	/** A call carrying its arguments' bytes. */
	public CallFrame(Mode mode, long id, long object, long timeoutNanos, String name, List<String> parameterTypes,
			List<@Nullable ByteBuffer> args) {
		this(mode, id, object, timeoutNanos, name, parameterTypes, args, null);
	}

	/** A call with no deadline whose sole argument was read as it arrived. */
	public CallFrame(Mode mode, long id, long object, String name, List<String> parameterTypes, List<@Nullable ByteBuffer> args,
			@Nullable Object decoded) {
		this(mode, id, object, 0, name, parameterTypes, args, decoded);
	}

	/**
	 * The bytes in front of a sole argument's value in the frame of a call of {@code name} with {@code parameterTypes}:
	 * what {@link ShippedValues#writeAfter} leaves room for, so that a large argument becomes its call's frame without
	 * being copied.
	 */
	public static int room(String name, List<String> parameterTypes) {
		return PREFIX + 8 + 8 + 8 + FrameWriter.sizeOf(FrameWriter.utf8(name)) + FrameWriter.sizeOf(FrameWriter.utf8(parameterTypes)) + 4 + 4;
	}

	/** Argument {@code index}: the one already read, or what {@code values} reads from its bytes. */
	public @Nullable Object argument(int index, ShippedValues values, Object what) {
		return decoded != null ? decoded : values.read(args.get(index), what);
	}

	public byte[] encode() {
		if (decoded != null) {
			throw new IllegalStateException("a call read as it arrived has no bytes to send on");
		}
		byte[] method = name.getBytes(StandardCharsets.UTF_8);
		List<byte[]> types = FrameWriter.utf8(parameterTypes);
		int room = room(name, parameterTypes);
		if (args.size() == 1) {
			ByteBuffer sole = args.get(0);
			FrameWriter head = FrameWriter.inFront(FrameKind.CALL, mode.ordinal(), sole, room);
			if (head != null && sole != null) {
				return writeHead(head, room, method, types).putInt(1).putInt(sole.remaining()).array();
			}
		}
		int size = 4 + 8 + 8 + 8 + FrameWriter.sizeOf(method) + FrameWriter.sizeOf(types) + FrameWriter.sizeOfAll(args);
		return writeHead(FrameWriter.of(FrameKind.CALL, mode.ordinal(), size), room, method, types).putAll(args).array();
	}

	private FrameWriter writeHead(FrameWriter out, int room, byte[] method, List<byte[]> types) {
		return out.putInt(room).putLong(id).putLong(object).putLong(timeoutNanos).putBytes(method).putTexts(types);
	}

	/**
	 * Reads the frames a manager's session brings down where the transport received them: a call whose sole argument
	 * is a large array of numbers or bytes goes straight into its array; any other frame, calls among them, comes
	 * whole.
	 */
	public static InboundReader<Arrived<CallFrame>> reader(ShippedValues values) {
		return new SoleValueReader<>(values, PREFIX, first -> first.get(0) == FrameKind.CALL.code() ? first.getInt(FrameHeaderCodec.SIZE) : -1,
				CallFrame::sole, Arrived::whole);
	}

	/** What makes the call from its sole argument, if {@code head} is a call's head in front of one of {@code valueBytes}. */
	private static @Nullable Function<Object, Arrived<CallFrame>> sole(ByteBuffer head, int valueBytes) {
		byte[] bytes = new byte[head.remaining()];
		head.get(bytes);
		try {
			FrameReader in = FrameReader.open(bytes, FrameKind.CALL, 0xff);
			Mode mode = mode(in);
			in.readInt();
			long id = in.readLong();
			long object = in.readLong();
			long timeoutNanos = timeout(in);
			String name = in.readRequiredText("method name");
			List<String> types = in.readTexts("parameter types");
			if (in.readInt() != 1 || in.readInt() != valueBytes || in.remaining() != 0) {
				return null;
			}
			List<@Nullable ByteBuffer> none = new ArrayList<>(1);
			none.add(null);
			return value -> Arrived.read(new CallFrame(mode, id, object, timeoutNanos, name, types, none, value));
		}
		catch (CodecException notOne) {
			// Decoding it whole refuses it, with the words a malformed call gets.
			return null;
		}
	}

	public static CallFrame decode(byte[] frame) {
		// The mode travels in the flags.
		FrameReader in = FrameReader.open(frame, FrameKind.CALL, 0xff);
		Mode mode = mode(in);
		int room = in.readInt();
		long id = in.readLong();
		long object = in.readLong();
		long timeoutNanos = timeout(in);
		String name = in.readRequiredText("method name");
		List<String> types = in.readTexts("parameter types");
		if (room != in.position() + 8) {
			throw in.malformed("its head says " + room + " bytes where its fields take " + (in.position() + 8));
		}
		int n = in.count("arguments", 4);
		List<@Nullable ByteBuffer> args = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			args.add(in.readSlice());
		}
		in.end();
		return new CallFrame(mode, id, object, timeoutNanos, name, types, args, null);
	}

	private static long timeout(FrameReader in) {
		long timeoutNanos = in.readLong();
		if (timeoutNanos < 0) {
			throw in.malformed("its timeout is " + timeoutNanos + " ns");
		}
		return timeoutNanos;
	}

	private static Mode mode(FrameReader in) {
		Mode[] modes = Mode.values();
		if (in.flags() >= modes.length) {
			throw in.malformed("unknown call mode " + in.flags());
		}
		return modes[in.flags()];
	}
}
