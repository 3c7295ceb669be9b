package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

/**
 * Queue items: one put, a producer's batch or a batch handed to a consumer. A count, then each item's
 * length and bytes. A batch is read as the transport receives it ({@link #reader}), each item copied into
 * an array of its own (the array of numbers or bytes it is, when it is one); an item decoded from a whole frame
 * ({@link #decode}, {@link #decodeOne}: a put) is a view of the frame's bytes, not a copy.
 */
public final class ItemsFrame {

	private ItemsFrame() {
	}

	/**
	 * A frame of {@code items} that the transport writes where it sends it from: the items are copied once, not
	 * first into a frame of their own. They must not change until it is sent.
	 */
	public static Outbound frame(List<QueueItem> items) {
		return frame(items, () -> { });
	}

	/** As {@link #frame(List)}, running {@code whenReleased} once the transport no longer reads the items. */
	public static Outbound frame(List<QueueItem> items, Runnable whenReleased) {
		return Outbound.of(FrameHeaderCodec.SIZE + sizeOf(items), target -> {
			ByteBuffer out = FrameWriter.into(target, FrameKind.ITEMS, 0).buffer().putInt(items.size());
			for (QueueItem item : items) {
				item.writeTo(out.putInt(item.size()));
			}
		}, whenReleased);
	}

	/** The bytes in front of a put's item in its frame: the header, the count and the item's length. */
	public static final int PUT_ROOM = FrameHeaderCodec.SIZE + 8;

	/**
	 * A put of {@code item} as a datum to send: the item's own array, its room filled in, when it was written with
	 * {@link #PUT_ROOM} bytes in front ({@link io.fiberjvm.codec.ShippedValues#writeAfter}); else a frame the item is
	 * copied into.
	 */
	public static Outbound put(QueueItem item) {
		ByteBuffer bytes = item.bytes();
		FrameWriter head = FrameWriter.inFront(FrameKind.ITEMS, 0, bytes, PUT_ROOM);
		if (bytes != null && head != null) {
			return Outbound.of(head.putInt(1).putInt(bytes.remaining()).array());
		}
		return frame(List.of(item));
	}

	/**
	 * The one item of a put that came as a channel's frames, read as they arrived ({@link #reader}); anything but
	 * one frame of one item is a {@link CodecException}.
	 */
	public static QueueItem one(List<List<QueueItem>> frames) {
		if (frames.size() != 1 || frames.get(0).size() != 1) {
			throw new CodecException("malformed put: it carries one frame of one item, not "
					+ frames.stream().map(frame -> Integer.toString(frame.size())).toList() + " items in " + frames.size()
					+ " frames");
		}
		return frames.get(0).get(0);
	}

	/**
	 * A reader of frames of items as the transport receives them: each item is copied straight into an array of its
	 * own, one of numbers or bytes when {@code values} read it as one, and the frame is never copied whole.
	 */
	public static InboundReader<List<QueueItem>> reader(ShippedValues values) {
		Objects.requireNonNull(values, "values");
		return size -> new ItemsReader(size, values);
	}

	/** The bytes the count and items of a frame of {@code items} take. */
	private static int sizeOf(List<QueueItem> items) {
		long size = 4;
		for (QueueItem item : items) {
			size += 4 + item.size();
		}
		return Math.toIntExact(size);
	}

	/** The items of {@code frame}, as views of it. */
	public static List<ByteBuffer> decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ITEMS);
		int count = in.readInt();
		// Each item takes at least its 4-byte length.
		if (count < 0 || count > in.remaining() / 4) {
			throw in.malformed("it claims " + count + " items in " + frame.length + " bytes");
		}
		List<ByteBuffer> items = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			items.add(item(in, "item " + i));
		}
		in.end();
		return items;
	}

	/** The one item of a put, as a view of {@code frame}. */
	public static ByteBuffer decodeOne(byte[] frame) {
		List<ByteBuffer> items = decode(frame);
		if (items.size() != 1) {
			throw FrameHeaderCodec.malformed(FrameKind.ITEMS, frame.length, "a put carries one item, not " + items.size());
		}
		return items.get(0);
	}

	private static ByteBuffer item(FrameReader in, String which) {
		ByteBuffer item = in.readSlice();
		if (item == null) {
			throw in.malformed(which + " is null");
		}
		return item;
	}

	/** {@code items} cut into batches whose frames take at most {@code maxBytes} (one item alone may take more). */
	public static List<List<QueueItem>> split(List<QueueItem> items, int maxBytes) {
		List<List<QueueItem>> batches = new ArrayList<>();
		List<QueueItem> current = new ArrayList<>();
		int empty = FrameHeaderCodec.SIZE + 4;
		int size = empty;
		for (QueueItem item : items) {
			int itemSize = 4 + item.size();
			if (!current.isEmpty() && size + itemSize > maxBytes) {
				batches.add(current);
				current = new ArrayList<>();
				size = empty;
			}
			current.add(item);
			size += itemSize;
		}
		if (!current.isEmpty()) {
			batches.add(current);
		}
		return batches;
	}
}
