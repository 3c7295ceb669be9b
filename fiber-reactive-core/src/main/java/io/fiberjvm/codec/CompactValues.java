package io.fiberjvm.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.BulkCopy;

/**
 * The compact forms of the values tasks pass most: a tag byte, then the value's bytes. Anything else
 * is tagged {@link #SERIALIZED} and goes through Java serialization.
 *
 * <p>Single numbers are big-endian; arrays of numbers are little-endian, the order of the machines a run
 * uses, so a large array is copied in one block each way instead of byte-swapped element by element. Their
 * tags are not the ones big-endian arrays had, so a process of an older build refuses them ("unknown value
 * tag") instead of reading other numbers.
 */
final class CompactValues {

	static final byte SERIALIZED = 0;
	private static final byte INT = 1;
	private static final byte LONG = 2;
	private static final byte DOUBLE = 3;
	private static final byte BOOLEAN = 4;
	private static final byte STRING = 5;
	private static final byte BYTES = 6;
	// Tags 7 to 10 were big-endian arrays; a reader of those tags would take these bytes for others.
	private static final byte DOUBLES = 11;
	private static final byte FLOATS = 12;
	private static final byte INTS = 13;
	private static final byte LONGS = 14;
	/** A record of compact values, {@link CompactRecords}'s. */
	static final byte RECORD = 15;
	private static final byte FLOAT = 16;
	private static final byte SHORT = 17;
	private static final byte BYTE = 18;
	private static final byte CHAR = 19;

	private CompactValues() {
	}

	/**
	 * The bytes the compact form of {@code value} takes, counted without making it (an array's may be more than
	 * an array can hold), or -1 when it has none.
	 */
	static long sizeOf(Object value) {
		if (value instanceof Integer) {
			return 5;
		}
		if (value instanceof Long || value instanceof Double) {
			return 9;
		}
		if (value instanceof Boolean || value instanceof Byte) {
			return 2;
		}
		if (value instanceof Short || value instanceof Character) {
			return 3;
		}
		if (value instanceof Float) {
			return 5;
		}
		if (value instanceof String s) {
			// At most three bytes of UTF-8 for each char; the exact count is made with the bytes.
			return 1 + 3L * s.length();
		}
		if (value instanceof byte[] bytes) {
			return 1 + (long) bytes.length;
		}
		if (value instanceof double[] doubles) {
			return 1 + 8L * doubles.length;
		}
		if (value instanceof float[] floats) {
			return 1 + 4L * floats.length;
		}
		if (value instanceof int[] ints) {
			return 1 + 4L * ints.length;
		}
		if (value instanceof long[] longs) {
			return 1 + 8L * longs.length;
		}
		return -1;
	}

	/**
	 * The compact bytes of {@code value}, which {@link #sizeOf} says has a compact form, after {@code room} bytes
	 * left free in front of them: in an array of that size from {@code arrays}, which they fill all of after the room,
	 * leaving the room as it was; in a new array (the room zeros) when there are no {@code arrays} or they give none
	 * (null).
	 */
	static byte[] write(Object value, int room, @Nullable IntFunction<byte @Nullable []> arrays) {
		if (value instanceof String s) {
			return tagged(room, STRING, s.getBytes(StandardCharsets.UTF_8), arrays);
		}
		if (value instanceof byte[] bytes) {
			return tagged(room, BYTES, bytes, arrays);
		}
		if (room == 0 && arrays == null && value instanceof Integer i) {
			// The commonest value, written without a buffer around it.
			int v = i;
			return new byte[] {INT, (byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
		}
		int length = Math.addExact(room, Math.toIntExact(sizeOf(value)));
		byte[] lent = arrays == null ? null : arrays.apply(length);
		ByteBuffer out = ByteBuffer.wrap(lent == null ? new byte[length] : lent).position(room);
		put(out, value, null);
		return out.array();
	}

	/**
	 * Puts the compact bytes of {@code value}, which {@link #sizeOf} says has a compact form, at the position of
	 * {@code out}, which has room for them; a text's UTF-8 bytes are {@code utf8} when the caller made them already.
	 */
	static void put(ByteBuffer out, Object value, byte @Nullable [] utf8) {
		if (value instanceof Integer i) {
			out.put(INT).putInt(i);
		}
		else if (value instanceof Long l) {
			out.put(LONG).putLong(l);
		}
		else if (value instanceof Double d) {
			out.put(DOUBLE).putDouble(d);
		}
		else if (value instanceof Boolean b) {
			out.put(BOOLEAN).put((byte) (b ? 1 : 0));
		}
		else if (value instanceof Float f) {
			out.put(FLOAT).putFloat(f);
		}
		else if (value instanceof Short h) {
			out.put(SHORT).putShort(h);
		}
		else if (value instanceof Byte b) {
			out.put(BYTE).put(b);
		}
		else if (value instanceof Character c) {
			out.put(CHAR).putChar(c);
		}
		else if (value instanceof String s) {
			out.put(STRING).put(utf8 != null ? utf8 : s.getBytes(StandardCharsets.UTF_8));
		}
		else if (value instanceof byte[] bytes) {
			BulkCopy.put(out.put(BYTES), bytes, 0, bytes.length);
		}
		else if (value instanceof double[] doubles) {
			BulkCopy.put(out.put(DOUBLES), doubles);
			out.position(out.position() + doubles.length * 8);
		}
		else if (value instanceof float[] floats) {
			BulkCopy.put(out.put(FLOATS), floats);
			out.position(out.position() + floats.length * 4);
		}
		else if (value instanceof int[] ints) {
			BulkCopy.put(out.put(INTS), ints);
			out.position(out.position() + ints.length * 4);
		}
		else if (value instanceof long[] longs) {
			BulkCopy.put(out.put(LONGS), longs);
			out.position(out.position() + longs.length * 8);
		}
		else {
			throw new IllegalArgumentException(value.getClass().getName() + " has no compact form");
		}
	}

	private static byte[] tagged(int room, byte tag, byte[] bytes, @Nullable IntFunction<byte @Nullable []> arrays) {
		int length = Math.addExact(Math.addExact(room, 1), bytes.length);
		byte[] out = arrays == null ? null : arrays.apply(length);
		if (out == null) {
			// Made and filled in one step, which spares zeroing it first.
			out = BulkCopy.copyOf(bytes, 0, bytes.length, room + 1);
		}
		else {
			BulkCopy.copy(bytes, 0, out, room + 1, bytes.length);
		}
		out[room] = tag;
		return out;
	}

	/** Reads what {@link #write} wrote; fails naming the tag or the length that is wrong. */
	static Object read(byte[] bytes, int offset, int length) {
		ByteBuffer in = ByteBuffer.wrap(bytes, offset + 1, length - 1).slice();
		int n = in.remaining();
		return switch (bytes[offset]) {
			case INT -> {
				exactly(n, 4, "an int");
				yield in.getInt();
			}
			case LONG -> {
				exactly(n, 8, "a long");
				yield in.getLong();
			}
			case DOUBLE -> {
				exactly(n, 8, "a double");
				yield in.getDouble();
			}
			case BOOLEAN -> {
				exactly(n, 1, "a boolean");
				yield in.get() != 0;
			}
			case FLOAT -> {
				exactly(n, 4, "a float");
				yield in.getFloat();
			}
			case SHORT -> {
				exactly(n, 2, "a short");
				yield in.getShort();
			}
			case BYTE -> {
				exactly(n, 1, "a byte");
				yield in.get();
			}
			case CHAR -> {
				exactly(n, 2, "a char");
				yield in.getChar();
			}
			case STRING -> new String(bytes, offset + 1, n, StandardCharsets.UTF_8);
			case BYTES -> BulkCopy.copyOf(bytes, offset + 1, n, 0);
			case DOUBLES, FLOATS, INTS, LONGS -> {
				ArrivingArray array = arriving(bytes[offset], n);
				if (array == null) {
					throw new IllegalArgumentException(n + " bytes are not a whole number of " + switch (bytes[offset]) {
						case DOUBLES -> "doubles";
						case FLOATS -> "floats";
						case INTS -> "ints";
						default -> "longs";
					});
				}
				array.take(in);
				yield array.end();
			}
			default -> throw new IllegalArgumentException("unknown value tag " + bytes[offset]);
		};
	}

	/**
	 * The array whose compact form starts with {@code tag} and has {@code bytes} bytes after it, to be filled as they
	 * arrive; null when it is no array of numbers or bytes, or when those bytes cannot make one ({@link #read} of
	 * them says why).
	 */
	static @Nullable ArrivingArray arriving(byte tag, int bytes) {
		int width = switch (tag) {
			case BYTES -> 1;
			case FLOATS, INTS -> 4;
			case DOUBLES, LONGS -> 8;
			default -> 0;
		};
		if (width == 0 || bytes < 0 || bytes % width != 0) {
			return null;
		}
		int n = bytes / width;
		return new ArrivingArray(switch (tag) {
			case BYTES -> new byte[n];
			case FLOATS -> new float[n];
			case INTS -> new int[n];
			case DOUBLES -> new double[n];
			default -> new long[n];
		}, width, n);
	}

	private static void exactly(int n, int expected, String what) {
		if (n != expected) {
			throw new IllegalArgumentException(what + " takes " + expected + " bytes, not " + n);
		}
	}
}
