package io.fiberjvm.internal.frames;

import java.util.ArrayList;
import java.util.List;

/**
 * Queue items: one put, a producer's batch or a batch handed to a consumer. A count, then each item's
 * length and bytes.
 */
public final class ItemsFrame {

	private ItemsFrame() {
	}

	public static byte[] encode(List<byte[]> items) {
		int size = 4;
		for (byte[] item : items) {
			size += 4 + item.length;
		}
		FrameWriter out = FrameWriter.of(FrameKind.ITEMS, 0, size).putInt(items.size());
		for (byte[] item : items) {
			out.putBytes(item);
		}
		return out.array();
	}

	/** One item. */
	public static byte[] encode(byte[] item) {
		return FrameWriter.of(FrameKind.ITEMS, 0, 8 + item.length).putInt(1).putBytes(item).array();
	}

	public static List<byte[]> decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ITEMS);
		int count = in.readInt();
		// Each item takes at least its 4-byte length.
		if (count < 0 || count > in.remaining() / 4) {
			throw in.malformed("it claims " + count + " items in " + frame.length + " bytes");
		}
		List<byte[]> items = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			byte[] item = in.readBytes();
			if (item == null) {
				throw in.malformed("item " + i + " is null");
			}
			items.add(item);
		}
		in.end();
		return items;
	}

	/** The one item of a put, copied out of the frame once. */
	public static byte[] decodeOne(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ITEMS);
		int count = in.readInt();
		if (count != 1) {
			throw in.malformed("a put carries one item, not " + count);
		}
		byte[] item = in.readBytes();
		if (item == null) {
			throw in.malformed("its item is null");
		}
		in.end();
		return item;
	}

	/** {@code items} cut into batches whose frames take at most {@code maxBytes} (one item alone may take more). */
	public static List<List<byte[]>> split(List<byte[]> items, int maxBytes) {
		List<List<byte[]>> batches = new ArrayList<>();
		List<byte[]> current = new ArrayList<>();
		int empty = FrameHeaderCodec.SIZE + 4;
		int size = empty;
		for (byte[] item : items) {
			if (!current.isEmpty() && size + 4 + item.length > maxBytes) {
				batches.add(current);
				current = new ArrayList<>();
				size = empty;
			}
			current.add(item);
			size += 4 + item.length;
		}
		if (!current.isEmpty()) {
			batches.add(current);
		}
		return batches;
	}
}
