package io.fiberjvm.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import io.fiberjvm.internal.BulkCopy;

/**
 * An array of numbers or bytes read from its compact form while the form's bytes arrive: each run of them is copied
 * straight into the array, from the memory the transport received it in, so the value is never held as bytes too.
 * An element whose bytes straddle two runs is carried over to the next. Made by {@link ShippedValues#arriving}.
 *
 * <p>Not thread-safe: the runs of one value come one at a time, in order.
 */
public final class ArrivingArray {

	private final Object array;
	/** Bytes per element. */
	private final int width;
	private final int length;
	/** Elements filled. */
	private int filled;
	/** The first bytes of an element cut off at the end of a run. */
	private final byte[] carry = new byte[8];
	private int carried;

	/** Fills {@code array}, of {@code length} elements of {@code width} bytes each, from its first element. */
	ArrivingArray(Object array, int width, int length) {
		this.array = array;
		this.width = width;
		this.length = length;
	}

	/** The next bytes of the array's elements, from the position to the limit of {@code bytes}, which does not move. */
	public void take(ByteBuffer bytes) {
		ByteBuffer in = bytes.duplicate().order(ByteOrder.LITTLE_ENDIAN);
		long room = (long) (length - filled) * width - carried;
		if (in.remaining() > room) {
			throw new IllegalStateException("an array of " + length + " elements of " + width + " bytes was given "
					+ (in.remaining() - room) + " bytes too many");
		}
		if (carried > 0) {
			int n = Math.min(width - carried, in.remaining());
			in.get(carry, carried, n);
			carried += n;
			if (carried < width) {
				return;
			}
			fill(ByteBuffer.wrap(carry, 0, width).order(ByteOrder.LITTLE_ENDIAN), 1);
			carried = 0;
		}
		int whole = in.remaining() / width;
		fill(in, whole);
		in.position(in.position() + whole * width);
		carried = in.remaining();
		in.get(carry, 0, carried);
	}

	/** The array, once all of its bytes were taken. */
	public Object end() {
		if (filled != length || carried != 0) {
			throw new IllegalStateException("an array of " + length + " elements of " + width + " bytes ended after "
					+ ((long) filled * width + carried) + " bytes");
		}
		return array;
	}

	/** {@code count} elements from {@code in} at its position, which does not move. */
	private void fill(ByteBuffer in, int count) {
		if (array instanceof double[] doubles) {
			BulkCopy.get(in, doubles, filled, count);
		}
		else if (array instanceof float[] floats) {
			BulkCopy.get(in, floats, filled, count);
		}
		else if (array instanceof int[] ints) {
			BulkCopy.get(in, ints, filled, count);
		}
		else if (array instanceof long[] longs) {
			BulkCopy.get(in, longs, filled, count);
		}
		else {
			BulkCopy.get(in.duplicate(), (byte[]) array, filled, count);
		}
		filled += count;
	}
}
