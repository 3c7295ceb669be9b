package io.fiberjvm.internal.ring;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** An array being all-reduced, as the ring algorithm sees it: ranges turned into bytes, and bytes added or copied back in. */
abstract class ReduceBuffer {

	abstract int length();

	/** Bytes per element. */
	abstract int elementBytes();

	/** Writes elements {@code from} (inclusive) to {@code to} (exclusive) into {@code out} as little-endian bytes. */
	abstract void encode(int from, int to, ByteBuffer out);

	/** Adds the elements in {@code bytes} into the array from {@code from} on. */
	abstract void add(int from, ByteBuffer bytes);

	/** Replaces the elements from {@code from} on with those in {@code bytes}. */
	abstract void set(int from, ByteBuffer bytes);

	abstract void divide(int by);

	static ByteBuffer little(ByteBuffer bytes) {
		return bytes.slice().order(ByteOrder.LITTLE_ENDIAN);
	}

	static final class Doubles extends ReduceBuffer {
		final double[] values;

		Doubles(double[] values) {
			this.values = values;
		}

		@Override
		int length() {
			return values.length;
		}

		@Override
		int elementBytes() {
			return Double.BYTES;
		}

		@Override
		void encode(int from, int to, ByteBuffer out) {
			little(out).asDoubleBuffer().put(values, from, to - from);
			out.position(out.position() + (to - from) * Double.BYTES);
		}

		@Override
		void add(int from, ByteBuffer bytes) {
			var in = little(bytes).asDoubleBuffer();
			for (int i = 0, n = in.remaining(); i < n; i++) {
				values[from + i] += in.get(i);
			}
		}

		@Override
		void set(int from, ByteBuffer bytes) {
			var in = little(bytes).asDoubleBuffer();
			in.get(values, from, in.remaining());
		}

		@Override
		void divide(int by) {
			for (int i = 0; i < values.length; i++) {
				values[i] /= by;
			}
		}
	}

	static final class Floats extends ReduceBuffer {
		final float[] values;

		Floats(float[] values) {
			this.values = values;
		}

		@Override
		int length() {
			return values.length;
		}

		@Override
		int elementBytes() {
			return Float.BYTES;
		}

		@Override
		void encode(int from, int to, ByteBuffer out) {
			little(out).asFloatBuffer().put(values, from, to - from);
			out.position(out.position() + (to - from) * Float.BYTES);
		}

		@Override
		void add(int from, ByteBuffer bytes) {
			var in = little(bytes).asFloatBuffer();
			for (int i = 0, n = in.remaining(); i < n; i++) {
				values[from + i] += in.get(i);
			}
		}

		@Override
		void set(int from, ByteBuffer bytes) {
			var in = little(bytes).asFloatBuffer();
			in.get(values, from, in.remaining());
		}

		@Override
		void divide(int by) {
			for (int i = 0; i < values.length; i++) {
				values[i] /= by;
			}
		}
	}
}
