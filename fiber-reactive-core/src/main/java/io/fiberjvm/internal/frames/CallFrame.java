package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A call on an object a manager hosts (or, with id and object 0, on a shared object): create it, or call
 * one of its methods. The mode travels in the header's flags.
 *
 * @param mode what the call does
 * @param id the call's id, which its answer carries
 * @param object the object's number in its manager
 * @param name the implementation class for {@link Mode#CREATE}, else the method or operation
 * @param parameterTypes the method's parameter type names, which pick it among overloads
 * @param args each argument's bytes, null for a null argument; read from a frame, each is a view of it, not a copy
 */
public record CallFrame(Mode mode, long id, long object, String name, List<String> parameterTypes,
		List<@Nullable ByteBuffer> args) {

	/** What a call does. */
	public enum Mode {
		/** Calls a method whose result is one value. */
		CALL,
		/** Calls a method whose result is a sequence, sent back as a list. */
		CALL_MANY,
		/** Creates the object, with {@code name} its class. */
		CREATE
	}

	/** A call whose arguments are arrays, as a sender encoded them (null for a null argument). */
	public static CallFrame of(Mode mode, long id, long object, String name, List<String> parameterTypes,
			List<byte @Nullable []> args) {
		List<@Nullable ByteBuffer> views = new ArrayList<>(args.size());
		for (byte[] arg : args) {
			views.add(arg == null ? null : ByteBuffer.wrap(arg));
		}
		return new CallFrame(mode, id, object, name, parameterTypes, views);
	}

	public byte[] encode() {
		byte[] method = FrameWriter.utf8(name);
		List<byte[]> types = FrameWriter.utf8(parameterTypes);
		int size = 8 + 8 + FrameWriter.sizeOf(method) + FrameWriter.sizeOf(types) + FrameWriter.sizeOfAll(args);
		return FrameWriter.of(FrameKind.CALL, mode.ordinal(), size)
				.putLong(id)
				.putLong(object)
				.putBytes(method)
				.putTexts(types)
				.putAll(args)
				.array();
	}

	public static CallFrame decode(byte[] frame) {
		// The mode travels in the flags.
		FrameReader in = FrameReader.open(frame, FrameKind.CALL, 0xff);
		Mode[] modes = Mode.values();
		if (in.flags() >= modes.length) {
			throw in.malformed("unknown call mode " + in.flags());
		}
		Mode mode = modes[in.flags()];
		long id = in.readLong();
		long object = in.readLong();
		String name = in.readRequiredText("method name");
		List<String> types = in.readTexts("parameter types");
		int n = in.count("arguments", 4);
		List<@Nullable ByteBuffer> args = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			args.add(in.readSlice());
		}
		in.end();
		return new CallFrame(mode, id, object, name, types, args);
	}
}
