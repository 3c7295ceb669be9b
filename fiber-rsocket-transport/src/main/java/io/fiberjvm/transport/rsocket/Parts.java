package io.fiberjvm.transport.rsocket;

import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import io.rsocket.util.ByteBufPayload;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

/**
 * Data of streams and channels larger than 4 MiB travels as parts, each a payload of its own, sent as the
 * receiver asks for them (the rest of a datum's parts asked for ahead, once the first is in) and read by the
 * channel's reader as they arrive.
 *
 * <p>RSocket's own fragmentation would do it in one payload, but it queues every fragment at once (other streams
 * of the connection wait behind all of them) and the receiver keeps every fragment until the last arrives: a
 * gigabyte of new direct memory, zeroed on the connection's thread, for a gigabyte of data, beside the array it
 * is copied into. A part's metadata marks it: a zero byte (no route starts so), the data's total size and the
 * part's offset. Request-response payloads are not split.
 */
final class Parts {

	/** The largest data sent in one payload; larger data goes in parts of this size. */
	static final int PART = 4 << 20;

	/**
	 * The bytes of large payloads a stream may have made and not yet written: one more waits until some are. A
	 * receiver that asks without bound (a manager's session, a pool's results) would otherwise have every part of
	 * a gigabyte queued at once, ahead of the connection's keep-alives and other streams.
	 */
	static final long UNWRITTEN = 32 << 20;

	/**
	 * The parts of one datum a receiver asks for ahead of those it has: as many as a sender may have unwritten, so a
	 * large datum does not cross one part per round trip.
	 */
	static final int WINDOW = (int) (UNWRITTEN / PART);

	/**
	 * Payloads with at least this much data are counted against {@link #UNWRITTEN}; smaller ones are copied into
	 * pooled memory as they are made ({@link Frames#data(byte[], int, int)}).
	 */
	static final int TRACKED = Frames.POOLED_LIMIT + 1;

	static final byte MARK = 0;
	static final int MARK_SIZE = 1 + 8 + 8;

	private Parts() {
	}

	/**
	 * Each datum of {@code data} as one payload, or as its parts. The source is asked for one datum at a time, and
	 * only when the receiver wants a payload and none is left of the last datum, so it makes no more than a
	 * plain one-payload-per-datum stream would.
	 */
	static Flux<Payload> out(Publisher<? extends Outbound> data, String route, int maxPayloadSize) {
		return Flux.from(subscriber -> Flux.from(data).subscribe(new Splitter(subscriber, route, maxPayloadSize)));
	}

	/** The number of payloads that carry {@code size} bytes. */
	static int count(int size) {
		// In longs: near 2 GiB, size + PART would overflow.
		return size <= PART ? 1 : (int) ((size + (long) PART - 1) / PART);
	}

	/** The bytes of payload {@code index} of those that carry {@code size} bytes. */
	static int size(int size, int index) {
		return Math.min(PART, size - index * PART);
	}

	/** Whether a payload of {@code size} bytes is counted against {@link #UNWRITTEN}. */
	static boolean tracked(int size) {
		return size >= TRACKED;
	}

	/** The one payload of a datum of {@code size} bytes that goes whole, written into pooled memory ({@link Frames#data(Outbound, int)}). */
	static Payload payload(Outbound data, int size) {
		return ByteBufPayload.create(Frames.data(data, size));
	}

	/**
	 * Payload {@code index} of those that carry {@code data}; {@code written} runs once the transport is done with
	 * its data (written, or dropped), when it is {@link #tracked}. The caller has checked the datum's size.
	 */
	static Payload payload(byte[] data, int index, Runnable written) {
		int offset = index * PART;
		int length = size(data.length, index);
		ByteBuf bytes = tracked(length) ? new WrittenSignal(data, written).slice(offset, length) : Frames.data(data, offset, length);
		if (data.length <= PART) {
			return ByteBufPayload.create(bytes);
		}
		ByteBuf mark = ReassemblingAllocator.INSTANCE.directBuffer(MARK_SIZE, MARK_SIZE).writeByte(MARK).writeLong(data.length).writeLong(offset);
		return ByteBufPayload.create(bytes, mark);
	}

	/**
	 * Each datum of {@code payloads} as {@code reader} reads it from the payload, or from its parts as they arrive
	 * ({@link Joiner}); what arrived is released. Each subscription keeps its own state.
	 */
	static <T> Flux<T> join(Flux<Payload> payloads, InboundReader<T> reader, int maxPayloadSize) {
		return Flux.from(subscriber -> payloads.subscribe(new Joiner<>(subscriber, reader, maxPayloadSize)));
	}
}
