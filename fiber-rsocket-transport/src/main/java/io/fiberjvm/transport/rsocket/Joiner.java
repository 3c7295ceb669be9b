package io.fiberjvm.transport.rsocket;

import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import reactor.core.publisher.Operators;

import io.fiberjvm.FiberException;

/**
 * Payloads in, data out: a whole payload's data as it came, a large datum's parts put together in one array as
 * they arrive ({@link Parts}). The receiver's demand passes straight to the sender, one payload for each datum it
 * wants; once a datum's first part is in, its remaining parts are asked for here, {@link Parts#WINDOW} ahead, so
 * the datum streams at the connection's pace instead of one part per round trip. Each part asked for here is one
 * of that datum's, so the sender is never asked for more data than the receiver wants. What arrived is released.
 */
final class Joiner extends PayloadOperator<Payload, Parts.Inbound> {

	private final int maxPayloadSize;

	// Touched only by the upstream's signals, which come one at a time.
	private boolean done;
	private byte @Nullable [] current;
	private int filled;
	/** The parts of the current datum after its first. */
	private int rest;
	/** How many of those have been asked for. */
	private int asked;

	Joiner(Subscriber<? super Parts.Inbound> downstream, int maxPayloadSize) {
		super(downstream);
		this.maxPayloadSize = maxPayloadSize;
	}

	@Override
	public void request(long n) {
		if (Operators.validate(n)) {
			source().request(n);
		}
	}

	@Override
	public void cancel() {
		source().cancel();
	}

	@Override
	public void onNext(Payload payload) {
		if (done) {
			payload.release();
			return;
		}
		if (!isPart(payload)) {
			if (current != null) {
				payload.release();
				fail("a whole payload arrived after " + filled + " of " + current.length + " bytes of parts");
				return;
			}
			downstream.onNext(new Parts.Inbound(Frames.route(payload), Frames.bytes(payload)));
			return;
		}
		byte[] joined;
		try {
			joined = add(payload);
		}
		finally {
			payload.release();
		}
		if (joined != null) {
			downstream.onNext(new Parts.Inbound("", joined));
		}
	}

	/** Copies a part in; the whole datum once its last part is in, else null. */
	private byte @Nullable [] add(Payload payload) {
		ByteBuf mark = payload.metadata();
		long total = mark.getLong(mark.readerIndex() + 1);
		long offset = mark.getLong(mark.readerIndex() + 9);
		ByteBuf data = payload.data();
		int length = data.readableBytes();
		byte[] into = current;
		boolean first = into == null;
		if (into == null) {
			if (offset != 0 || total <= Parts.PART || total > maxPayloadSize) {
				fail("a first part at " + offset + " of " + total + " bytes (limit " + maxPayloadSize + ")");
				return null;
			}
			into = new byte[(int) total];
			current = into;
			filled = 0;
		}
		// Every part but the last is exactly PART long: what is asked for ahead counts on it.
		if (total != into.length || offset != filled || length != Math.min(Parts.PART, into.length - filled)) {
			fail("a part of " + length + " bytes at " + offset + " of " + total + " where " + filled + " of "
					+ into.length + " had come");
			return null;
		}
		data.getBytes(data.readerIndex(), into, filled, length);
		filled += length;
		if (first) {
			rest = Parts.count(into.length) - 1;
			asked = Math.min(rest, Parts.WINDOW);
			source().request(asked);
		}
		else if (asked < rest) {
			// One part of the window has arrived: ask for the next.
			asked++;
			source().request(1);
		}
		if (filled < into.length) {
			return null;
		}
		current = null;
		return into;
	}

	@Override
	public void onError(Throwable failure) {
		if (done) {
			Operators.onErrorDropped(failure, currentContext());
			return;
		}
		done = true;
		current = null;
		downstream.onError(failure);
	}

	@Override
	public void onComplete() {
		if (done) {
			return;
		}
		done = true;
		byte[] into = current;
		current = null;
		if (into == null) {
			downstream.onComplete();
		}
		else {
			downstream.onError(malformed("the payloads ended after " + filled + " of " + into.length + " bytes of parts"));
		}
	}

	private void fail(String what) {
		done = true;
		current = null;
		source().cancel();
		downstream.onError(malformed(what));
	}

	private static boolean isPart(Payload payload) {
		if (!payload.hasMetadata()) {
			return false;
		}
		ByteBuf metadata = payload.metadata();
		return metadata.readableBytes() == Parts.MARK_SIZE && metadata.getByte(metadata.readerIndex()) == Parts.MARK;
	}

	private static FiberException malformed(String what) {
		return new FiberException("the peer broke a large payload's parts: " + what);
	}
}
