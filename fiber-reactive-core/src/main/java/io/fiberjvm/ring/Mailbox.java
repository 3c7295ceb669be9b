package io.fiberjvm.ring;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.codec.CodecException;

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
		private byte[] buffer;
		private int received;
		private final Sinks.One<byte[]> done = Sinks.one();
	}

	private final Map<Key, Slot> slots = new ConcurrentHashMap<>();

	/** A segment of {@code total} bytes starting at {@code offset}. */
	void deliver(int seq, int step, int from, int offset, int total, byte[] data, int dataOffset, int length) {
		Slot slot = slots.computeIfAbsent(new Key(seq, step, from), key -> new Slot());
		byte[] whole = null;
		synchronized (slot) {
			if (slot.buffer == null) {
				slot.buffer = new byte[total];
			}
			if (total != slot.buffer.length || offset < 0 || length < 0 || (long) offset + length > total
					|| slot.received + length > total) {
				throw new CodecException("a ring message from rank " + from + " does not fit: segment " + offset + "+" + length
						+ " of " + total + " bytes, " + slot.received + " of " + slot.buffer.length + " already received");
			}
			System.arraycopy(data, dataOffset, slot.buffer, offset, length);
			slot.received += length;
			if (slot.received == total) {
				whole = slot.buffer;
			}
		}
		if (whole != null) {
			slot.done.tryEmitValue(whole);
		}
	}

	/** The whole message, once it has come. */
	Mono<byte[]> take(int seq, int step, int from) {
		Key key = new Key(seq, step, from);
		Slot slot = slots.computeIfAbsent(key, k -> new Slot());
		return slot.done.asMono().doOnNext(bytes -> slots.remove(key, slot));
	}
}
