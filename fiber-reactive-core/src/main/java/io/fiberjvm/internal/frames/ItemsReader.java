package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ArrivingArray;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundAssembly;

/**
 * A frame of queue items read as its bytes arrive, each item copied straight into an array of its own: the frame is
 * never copied whole, and an item kept in a queue holds its own bytes, not a whole batch's. An item that is an array
 * of numbers or bytes, of {@link #ARRAYS_FROM} bytes or more, is read into that array, so whoever takes it need not
 * decode it. It refuses what {@link ItemsFrame#decode} refuses, with the same words.
 */
final class ItemsReader implements InboundAssembly<List<QueueItem>> {

	/** The header, then the count. */
	private static final int HEAD = FrameHeaderCodec.SIZE + 4;
	/**
	 * Items of fewer bytes are read as bytes whatever they are: for a small array, making it as it arrives costs more
	 * than the copy decoding it later does.
	 */
	static final int ARRAYS_FROM = 1024;

	private final int size;
	private final ShippedValues values;
	/** Bytes of the frame taken so far. */
	private int taken;
	/** The header and count, then each item's length, as their bytes come. */
	private final ByteBuffer field = ByteBuffer.allocate(HEAD);
	private int count = -1;
	private @Nullable List<QueueItem> items;
	/** The length of the item being read from its first byte, its tag, on (as an array or as bytes); -1 while none is. */
	private int tagged = -1;
	private byte @Nullable [] item;
	private int itemFilled;
	private @Nullable ArrivingArray arriving;
	/** The bytes the array being filled has still to take. */
	private int arrivingLeft;
	private byte arrivingTag;

	ItemsReader(int size, ShippedValues values) {
		this.size = size;
		this.values = values;
	}

	@Override
	public void take(ByteBuffer bytes) {
		if (bytes.remaining() > size - taken) {
			throw malformed("it gave more than its " + size + " bytes");
		}
		while (bytes.hasRemaining()) {
			ArrivingArray array = arriving;
			if (array != null) {
				int length = Math.min(arrivingLeft, bytes.remaining());
				array.take(bytes.slice().limit(length));
				bytes.position(bytes.position() + length);
				arrivingLeft -= length;
				taken += length;
				if (arrivingLeft == 0) {
					arriving = null;
					finishItem(QueueItem.arrived(arrivingTag, array.end(), tagged));
				}
				continue;
			}
			byte[] into = item;
			if (into != null) {
				int length = Math.min(into.length - itemFilled, bytes.remaining());
				bytes.get(into, itemFilled, length);
				itemFilled += length;
				taken += length;
				if (itemFilled == into.length) {
					finishItem(QueueItem.of(ByteBuffer.wrap(into)));
				}
				continue;
			}
			if (!field.hasRemaining()) {
				throw malformed((size - taken) + " bytes left over after the " + FrameKind.ITEMS.description());
			}
			int length = Math.min(field.remaining(), bytes.remaining());
			field.put(bytes.slice().limit(length));
			bytes.position(bytes.position() + length);
			taken += length;
			if (!field.hasRemaining()) {
				fieldRead();
			}
		}
	}

	/** The field being read is whole: the header and count, an item's length, or its first byte. */
	private void fieldRead() {
		field.flip();
		List<QueueItem> read = items;
		if (read == null) {
			checkHeader();
			count = field.getInt();
			// Each item takes at least its 4-byte length.
			if (count < 0 || count > (size - HEAD) / 4) {
				throw malformed("it claims " + count + " items in " + size + " bytes");
			}
			List<QueueItem> counted = new ArrayList<>(count);
			items = counted;
			startField(counted);
			return;
		}
		if (tagged >= 0) {
			tagRead(field.get());
			return;
		}
		int length = field.getInt();
		if (length == -1) {
			throw malformed("item " + read.size() + " is null");
		}
		if (length < 0 || length > size - taken) {
			throw malformed("a length of " + length + " with " + (size - taken) + " bytes left");
		}
		if (length == 0) {
			finishItem(QueueItem.of(ByteBuffer.allocate(0)));
			return;
		}
		if (length < ARRAYS_FROM) {
			item = new byte[length];
			itemFilled = 0;
			return;
		}
		tagged = length;
		field.clear().limit(1);
	}

	/** An item's first byte: an array of numbers or bytes is filled from the rest, anything else copied as it is. */
	private void tagRead(byte tag) {
		ArrivingArray array = values.arriving(tag, tagged - 1);
		if (array != null) {
			arriving = array;
			arrivingTag = tag;
			arrivingLeft = tagged - 1;
			return;
		}
		byte[] into = new byte[tagged];
		into[0] = tag;
		item = into;
		itemFilled = 1;
	}

	private void finishItem(QueueItem done) {
		List<QueueItem> read = Objects.requireNonNull(items, "items, once the count is read");
		read.add(done);
		item = null;
		tagged = -1;
		startField(read);
	}

	/** Ready for the next item's length, if the frame has one. */
	private void startField(List<QueueItem> read) {
		field.clear().limit(read.size() == count ? 0 : 4);
	}

	/** Checks the header, which the field holds from its start, as decoding a whole frame does. */
	private void checkHeader() {
		FrameHeaderCodec.checkLength(size);
		FrameHeaderCodec.check(field.get(0), size, FrameKind.ITEMS);
		FrameHeaderCodec.checkFlags(field.get(1) & 0xff, 0, FrameKind.ITEMS, size);
		field.position(FrameHeaderCodec.SIZE);
	}

	@Override
	public List<QueueItem> end() {
		List<QueueItem> read = items;
		if (read == null) {
			// All of a frame too short for its count was taken: its header is whole, or the frame has none.
			field.flip();
			checkHeader();
			throw malformed("it is cut short inside a number");
		}
		if (read.size() < count) {
			// An item's length, cut short; a cut item's bytes were refused when its length came.
			throw malformed("it is cut short inside a number");
		}
		if (taken < size) {
			throw malformed((size - taken) + " bytes left over after the " + FrameKind.ITEMS.description());
		}
		return read;
	}

	private CodecException malformed(String detail) {
		return FrameHeaderCodec.malformed(FrameKind.ITEMS, size, detail);
	}
}
