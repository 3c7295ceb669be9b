package io.fiberjvm.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Copies of large values in pieces of 1 MiB, so the JVM can reach a safepoint between two pieces.
 *
 * <p>One bulk copy (an array copy, a buffer's bulk put or get) is a single step the JVM cannot stop in: while a
 * thread copies a gigabyte, every other thread that reaches a safepoint (for the garbage collector's pauses)
 * waits, connections' threads included, for seconds on a small machine, and peers take the silence for a lost
 * process. Typed copies use the buffer's view in little-endian order, the order of arrays on the wire.
 */
public final class BulkCopy {

	/** The bytes copied in one step. */
	static final int PIECE = 1 << 20;

	private BulkCopy() {
	}

	/** {@code length} bytes of {@code src} from {@code offset} into {@code dst} at its position, which moves. */
	public static void put(ByteBuffer dst, byte[] src, int offset, int length) {
		if (length <= PIECE) {
			dst.put(src, offset, length);
			return;
		}
		inPieces(length, PIECE, (at, n) -> dst.put(src, offset + at, n));
	}

	/** The remaining bytes of {@code src} into {@code dst} at its position, which moves; {@code src}'s does not. */
	public static void put(ByteBuffer dst, ByteBuffer src) {
		int length = src.remaining();
		if (length <= PIECE) {
			// One step, and no view of src made: most values are a few bytes.
			dst.put(dst.position(), src, src.position(), length);
			dst.position(dst.position() + length);
			return;
		}
		ByteBuffer piece = src.duplicate();
		int start = src.position();
		inPieces(src.remaining(), PIECE, (at, n) -> dst.put(piece.limit(start + at + n).position(start + at)));
	}

	/** {@code length} bytes of {@code src} from its position into {@code dst} at {@code offset}; {@code src}'s position moves. */
	public static void get(ByteBuffer src, byte[] dst, int offset, int length) {
		inPieces(length, PIECE, (at, n) -> src.get(dst, offset + at, n));
	}

	/** {@code length} bytes from {@code src} at {@code srcOffset} to {@code dst} at {@code dstOffset}. */
	public static void copy(byte[] src, int srcOffset, byte[] dst, int dstOffset, int length) {
		inPieces(length, PIECE, (at, n) -> System.arraycopy(src, srcOffset + at, dst, dstOffset + at, n));
	}

	/**
	 * {@code length} bytes of {@code src} from {@code offset} in a new array, after {@code room} zero bytes. Up to
	 * {@link #PIECE} bytes are copied in one step right after the array is made, which lets the JIT compiler skip
	 * zeroing what the copy fills: a small value is then written once instead of twice.
	 */
	public static byte[] copyOf(byte[] src, int offset, int length, int room) {
		int size = Math.addExact(room, length);
		if (length <= PIECE) {
			// Nothing between making the array and filling it, or the compiler zeroes it first.
			byte[] out = new byte[size];
			System.arraycopy(src, offset, out, room, length);
			return out;
		}
		byte[] out = new byte[size];
		copy(src, offset, out, room, length);
		return out;
	}

	/** {@code values} into {@code dst} from its position; its position does not move. The same for the others below. */
	public static void put(ByteBuffer dst, double[] values) {
		var view = wire(dst).asDoubleBuffer();
		inPieces(values.length, PIECE / 8, (at, n) -> view.put(values, at, n));
	}

	public static void put(ByteBuffer dst, float[] values) {
		var view = wire(dst).asFloatBuffer();
		inPieces(values.length, PIECE / 4, (at, n) -> view.put(values, at, n));
	}

	public static void put(ByteBuffer dst, int[] values) {
		var view = wire(dst).asIntBuffer();
		inPieces(values.length, PIECE / 4, (at, n) -> view.put(values, at, n));
	}

	public static void put(ByteBuffer dst, long[] values) {
		var view = wire(dst).asLongBuffer();
		inPieces(values.length, PIECE / 8, (at, n) -> view.put(values, at, n));
	}

	/**
	 * {@code count} values from {@code src} at its position into {@code out} from {@code offset}; its position does not
	 * move. The same for the others below.
	 */
	public static void get(ByteBuffer src, double[] out, int offset, int count) {
		var view = wire(src).asDoubleBuffer();
		inPieces(count, PIECE / 8, (at, n) -> view.get(out, offset + at, n));
	}

	public static void get(ByteBuffer src, float[] out, int offset, int count) {
		var view = wire(src).asFloatBuffer();
		inPieces(count, PIECE / 4, (at, n) -> view.get(out, offset + at, n));
	}

	public static void get(ByteBuffer src, int[] out, int offset, int count) {
		var view = wire(src).asIntBuffer();
		inPieces(count, PIECE / 4, (at, n) -> view.get(out, offset + at, n));
	}

	public static void get(ByteBuffer src, long[] out, int offset, int count) {
		var view = wire(src).asLongBuffer();
		inPieces(count, PIECE / 8, (at, n) -> view.get(out, offset + at, n));
	}

	/** A copy of {@code array}, an array of bytes, floats, ints, doubles or longs. */
	public static Object copyOfArray(Object array) {
		Class<?> element = array.getClass().getComponentType();
		int width = element == byte.class ? 1 : element == float.class || element == int.class ? 4
				: element == double.class || element == long.class ? 8 : 0;
		if (width == 0) {
			throw new IllegalArgumentException("a " + array.getClass().getName()
					+ " is no array of bytes, floats, ints, doubles or longs");
		}
		int length = java.lang.reflect.Array.getLength(array);
		Object copy = java.lang.reflect.Array.newInstance(element, length);
		inPieces(length, PIECE / width, (at, n) -> System.arraycopy(array, at, copy, at, n));
		return copy;
	}

	/** {@code buffer} from its position in the order of arrays on the wire, without moving it. */
	private static ByteBuffer wire(ByteBuffer buffer) {
		return buffer.duplicate().order(ByteOrder.LITTLE_ENDIAN);
	}

	private static void inPieces(int length, int perPiece, Piece piece) {
		// A long, so the last step of a copy near 2 GiB does not overflow.
		for (long done = 0; done < length; done += perPiece) {
			piece.copy((int) done, (int) Math.min(perPiece, length - done));
		}
	}

	/** One step of a copy: {@code length} units from {@code at}. */
	@FunctionalInterface
	private interface Piece {
		void copy(int at, int length);
	}
}
