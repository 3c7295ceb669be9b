package io.fiberjvm.ring;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** An array being all-reduced, as the ring algorithm sees it: ranges turned into bytes, and bytes added or copied back in. */
abstract class ReduceBuffer {

	abstract int length();

	/** Elements {@code from} (inclusive) to {@code to} (exclusive) as little-endian bytes. */
	abstract byte[] encode(int from, int to);

	/** Adds the elements in {@code bytes} into the array from {@code from} on. */
	abstract void add(int from, byte[] bytes);

	/** Replaces the elements from {@code from} on with those in {@code bytes}. */
	abstract void set(int from, byte[] bytes);

	abstract void divide(int by);

	static ByteBuffer wrap(byte[] bytes) {
		return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
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
		byte[] encode(int from, int to) {
			byte[] bytes = new byte[(to - from) * Double.BYTES];
			wrap(bytes).asDoubleBuffer().put(values, from, to - from);
			return bytes;
		}

		@Override
		void add(int from, byte[] bytes) {
			var in = wrap(bytes).asDoubleBuffer();
			for (int i = 0, n = in.remaining(); i < n; i++) {
				values[from + i] += in.get(i);
			}
		}

		@Override
		void set(int from, byte[] bytes) {
			var in = wrap(bytes).asDoubleBuffer();
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
		byte[] encode(int from, int to) {
			byte[] bytes = new byte[(to - from) * Float.BYTES];
			wrap(bytes).asFloatBuffer().put(values, from, to - from);
			return bytes;
		}

		@Override
		void add(int from, byte[] bytes) {
			var in = wrap(bytes).asFloatBuffer();
			for (int i = 0, n = in.remaining(); i < n; i++) {
				values[from + i] += in.get(i);
			}
		}

		@Override
		void set(int from, byte[] bytes) {
			var in = wrap(bytes).asFloatBuffer();
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
