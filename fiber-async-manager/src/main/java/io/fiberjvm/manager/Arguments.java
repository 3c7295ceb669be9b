package io.fiberjvm.manager;

import java.lang.ref.SoftReference;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.CallFrame;

/** A call's arguments on their way to a manager: each one's bytes, refused together when over the limit. */
final class Arguments {

	private Arguments() {
	}

	/**
	 * Each argument's bytes (null for a null argument) for a call of {@code name} with {@code parameterTypes}; refused,
	 * naming it, when one cannot travel or all are over {@code max-value-size} together. A sole argument is written
	 * with room in front for its call's head ({@link CallFrame#room}), so that a large one becomes the call's frame
	 * without being copied. {@code what} names the call.
	 */
	static List<ByteBuffer> encode(ShippedValues values, Object[] args, String name, List<String> parameterTypes, String what) {
		// Null for a null argument.
		List<ByteBuffer> encoded = new ArrayList<>(args.length);
		int room = args.length == 1 ? CallFrame.room(name, parameterTypes) : 0;
		long together = 0;
		for (int i = 0; i < args.length; i++) {
			int index = i;
			Object argument = new Object() {
				@Override
				public String toString() {
					return "argument " + index + " of " + what;
				}
			};
			ByteBuffer bytes = args.length == 1 ? values.writeAfter(room, args[i], argument) : wrap(values.write(args[i], argument));
			encoded.add(bytes);
			together += bytes == null ? 0 : bytes.remaining();
		}
		values.checkTogether(together, "the arguments of " + what);
		return encoded;
	}

	/**
	 * The array of a call's sole argument, which its frame may be written in, held softly; null when the call has
	 * another count of arguments or its argument is null or has no array.
	 */
	static @Nullable SoftReference<byte[]> sole(List<ByteBuffer> encoded) {
		ByteBuffer sole = encoded.size() == 1 ? encoded.get(0) : null;
		return sole != null && sole.hasArray() ? new SoftReference<>(sole.array()) : null;
	}

	/** Gives the array {@link #sole} holds back to {@code values}, if the collector has not taken it. */
	static void giveBack(ShippedValues values, @Nullable SoftReference<byte[]> sole) {
		byte[] array = sole == null ? null : sole.get();
		if (array != null) {
			values.giveBack(ByteBuffer.wrap(array));
		}
	}

	private static @Nullable ByteBuffer wrap(byte @Nullable [] bytes) {
		return bytes == null ? null : ByteBuffer.wrap(bytes);
	}
}
