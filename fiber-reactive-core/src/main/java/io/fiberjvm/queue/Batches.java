package io.fiberjvm.queue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.fiberjvm.codec.CodecException;

/** The wire forms of a queue session: batches of items, grants, and consumer controls. */
final class Batches {

	private Batches() {
	}

	/** {@code [count][length, bytes]...}, lengths as 4-byte ints. */
	static byte[] encode(List<byte[]> items) {
		int size = 4;
		for (byte[] item : items) {
			size += 4 + item.length;
		}
		ByteBuffer out = ByteBuffer.allocate(size);
		out.putInt(items.size());
		for (byte[] item : items) {
			out.putInt(item.length).put(item);
		}
		return out.array();
	}

	static List<byte[]> decode(byte[] frame) {
		try {
			ByteBuffer in = ByteBuffer.wrap(frame);
			int count = in.getInt();
			if (count < 0 || count > frame.length) {
				throw new CodecException("a queue batch claims " + count + " items in " + frame.length + " bytes");
			}
			List<byte[]> items = new ArrayList<>(count);
			for (int i = 0; i < count; i++) {
				int length = in.getInt();
				if (length < 0 || length > in.remaining()) {
					throw new CodecException("a queue batch item claims " + length + " bytes with " + in.remaining() + " left");
				}
				byte[] item = new byte[length];
				in.get(item);
				items.add(item);
			}
			if (in.hasRemaining()) {
				throw new CodecException("a queue batch has " + in.remaining() + " bytes after its last item");
			}
			return items;
		}
		catch (java.nio.BufferUnderflowException e) {
			throw new CodecException("a queue batch of " + frame.length + " bytes is cut short");
		}
	}

	/** {@code items} cut into batches of at most {@code maxBytes} on the wire (one item alone may be larger). */
	static List<List<byte[]>> split(List<byte[]> items, int maxBytes) {
		List<List<byte[]>> batches = new ArrayList<>();
		List<byte[]> current = new ArrayList<>();
		int size = 4;
		for (byte[] item : items) {
			if (!current.isEmpty() && size + 4 + item.length > maxBytes) {
				batches.add(current);
				current = new ArrayList<>();
				size = 4;
			}
			current.add(item);
			size += 4 + item.length;
		}
		if (!current.isEmpty()) {
			batches.add(current);
		}
		return batches;
	}

	static byte[] encodeLongs(long... values) {
		ByteBuffer out = ByteBuffer.allocate(8 * values.length);
		for (long v : values) {
			out.putLong(v);
		}
		return out.array();
	}

	static long[] decodeLongs(byte[] frame, int count) {
		if (frame.length != 8 * count) {
			throw new CodecException("expected " + count + " numbers (" + 8 * count + " bytes), got " + frame.length + " bytes");
		}
		ByteBuffer in = ByteBuffer.wrap(frame);
		long[] values = new long[count];
		for (int i = 0; i < count; i++) {
			values[i] = in.getLong();
		}
		return values;
	}
}
