package io.fiberjvm.internal.ring;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.SegmentFrame;

/**
 * What a member has received from its peers, by collective, step and sender. A message may arrive
 * before its collective is called here (a faster neighbour), or in segments in any order; it is kept
 * until taken whole.
 */
final class Mailbox {

	private record Key(int seq, int step, int from) {
	}

	/** One message being put together. */
	private static final class Slot {
		private byte @Nullable [] buffer;
		private int received;
		private final Sinks.One<ByteBuffer> done = Sinks.one();
	}

	/** The longest array every JVM allocates; a longer message cannot be put together here. */
	private static final int LARGEST_ARRAY = Integer.MAX_VALUE - 8;

	private final Map<Key, Slot> slots = new ConcurrentHashMap<>();
	private final int size;

	/** The mailbox of a member of a ring of {@code size}. */
	Mailbox(int size) {
		this.size = size;
	}

	/** A segment from a peer; one naming a rank the ring does not have is a {@link CodecException}. */
	void deliver(SegmentFrame segment) {
		if (segment.from() >= size) {
			throw new CodecException("a ring message names collective " + segment.seq() + ", step " + segment.step() + ", rank "
					+ segment.from() + " and " + segment.total() + " bytes, which a ring of " + size + " cannot have");
		}
		deliver(segment.seq(), segment.step(), segment.from(), segment.offset(), segment.total(), segment.frame(),
				segment.dataOffset(), segment.length());
	}

	/** A segment of {@code total} bytes starting at {@code offset}. */
	private void deliver(int seq, int step, int from, int offset, int total, byte[] data, int dataOffset, int length) {
		Slot slot = slots.computeIfAbsent(new Key(seq, step, from), key -> new Slot());
		ByteBuffer whole = null;
		synchronized (slot) {
			if (slot.buffer == null && slot.received == 0 && offset == 0 && length == total && total >= 0) {
				// The whole message in one segment: hand the frame over as it is, without a copy.
				slot.received = total;
				slot.buffer = new byte[0];
				whole = ByteBuffer.wrap(data, dataOffset, length).slice();
			}
		}
		if (whole != null) {
			slot.done.tryEmitValue(whole);
			return;
		}
		synchronized (slot) {
			if (offset < 0 || length < 0 || total < 0 || (long) offset + length > total) {
				throw new CodecException("a ring message from rank " + from + " does not fit: segment " + offset + "+" + length
						+ " of " + total + " bytes");
			}
			if (total > LARGEST_ARRAY) {
				throw new CodecException("a ring message from rank " + from + " says it has " + total
						+ " bytes, more than one Java array can hold (" + LARGEST_ARRAY + ")");
			}
			if (slot.buffer == null) {
				slot.buffer = new byte[total];
			}
			if (slot.received == total && slot.buffer.length == 0 && total > 0) {
				throw new CodecException("a ring message from rank " + from + " came twice");
			}
			if (total != slot.buffer.length || offset < 0 || length < 0 || (long) offset + length > total
					|| slot.received + length > total) {
				throw new CodecException("a ring message from rank " + from + " does not fit: segment " + offset + "+" + length
						+ " of " + total + " bytes, " + slot.received + " of " + slot.buffer.length + " already received");
			}
			System.arraycopy(data, dataOffset, slot.buffer, offset, length);
			slot.received += length;
			if (slot.received == total) {
				whole = ByteBuffer.wrap(slot.buffer);
			}
		}
		if (whole != null) {
			slot.done.tryEmitValue(whole);
		}
	}

	/** The whole message, once it has come. */
	Mono<ByteBuffer> take(int seq, int step, int from) {
		Key key = new Key(seq, step, from);
		Slot slot = slots.computeIfAbsent(key, k -> new Slot());
		return slot.done.asMono().doOnNext(bytes -> slots.remove(key, slot));
	}
}
