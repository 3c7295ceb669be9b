package io.fiberjvm.transport.rsocket;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.netty.buffer.ByteBuf;
import io.rsocket.Payload;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscriber;
import reactor.core.Exceptions;
import reactor.core.publisher.Operators;

import io.fiberjvm.FiberException;
import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;

/**
 * Payloads in, data out: each datum read by the channel's {@link InboundReader} from the frames it arrived in, a
 * whole payload at once and a large datum part by part as its parts arrive ({@link Parts}). The receiver's demand
 * passes straight to the sender, one payload for each datum it wants; once a datum's first part is in, its
 * remaining parts are asked for here, {@link Parts#WINDOW} ahead, so the datum streams at the connection's pace
 * instead of one part per round trip. Each part asked for here is one of that datum's, so the sender is never
 * asked for more data than the receiver wants. What arrived is released once read.
 *
 * @param <T> what a datum is read as
 */
final class Joiner<T> extends PayloadOperator<Payload, T> {

	private final InboundReader<T> reader;
	private final int maxPayloadSize;

	/** Set by the receiver; payloads already on their way are then released unread, and nothing more is signalled. */
	private volatile boolean cancelled;

	// Touched only by the upstream's signals, which come one at a time.
	private boolean done;
	private @Nullable InboundAssembly<T> current;
	private int size;
	private int filled;
	/** The parts of the current datum after its first. */
	private int rest;
	/** How many of those have been asked for. */
	private int asked;

	Joiner(Subscriber<? super T> downstream, InboundReader<T> reader, int maxPayloadSize) {
		super(downstream);
		this.reader = reader;
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
		cancelled = true;
		source().cancel();
	}

	@Override
	public void onNext(Payload payload) {
		if (done || cancelled) {
			current = null;
			payload.release();
			return;
		}
		T datum = null;
		Throwable failure = null;
		try {
			datum = isPart(payload) ? add(payload) : whole(payload);
		}
		catch (RuntimeException | Error e) {
			Exceptions.throwIfJvmFatal(e);
			// Broken parts, or the reader's own failure, told as it is.
			failure = e;
		}
		finally {
			payload.release();
		}
		if (failure != null) {
			fail(failure);
		}
		else if (datum != null) {
			downstream.onNext(datum);
		}
	}

	/** A datum that came in one payload. */
	private T whole(Payload payload) {
		if (current != null) {
			throw malformed("a whole payload arrived after " + filled + " of " + size + " bytes of parts");
		}
		ByteBuf data = payload.data();
		InboundAssembly<T> assembly = reader.begin(data.readableBytes());
		take(assembly, data);
		return ended(assembly);
	}

	/** Reads a part; the whole datum once its last part is in, else null. */
	private @Nullable T add(Payload payload) {
		ByteBuf mark = payload.metadata();
		long total = mark.getLong(mark.readerIndex() + 1);
		long offset = mark.getLong(mark.readerIndex() + 9);
		ByteBuf data = payload.data();
		int length = data.readableBytes();
		InboundAssembly<T> assembly = current;
		boolean first = assembly == null;
		if (assembly == null) {
			if (offset != 0 || total <= Parts.PART || total > maxPayloadSize) {
				throw malformed("a first part at " + offset + " of " + total + " bytes (limit " + maxPayloadSize + ")");
			}
			size = (int) total;
			filled = 0;
			assembly = reader.begin(size);
			current = assembly;
		}
		// Every part but the last is exactly PART long: what is asked for ahead counts on it.
		if (total != size || offset != filled || length != Math.min(Parts.PART, size - filled)) {
			throw malformed("a part of " + length + " bytes at " + offset + " of " + total + " where " + filled + " of "
					+ size + " had come");
		}
		take(assembly, data);
		filled += length;
		if (first) {
			rest = Parts.count(size) - 1;
			asked = Math.min(rest, Parts.WINDOW);
			source().request(asked);
		}
		else if (asked < rest) {
			// One part of the window has arrived: ask for the next.
			asked++;
			source().request(1);
		}
		if (filled < size) {
			return null;
		}
		current = null;
		return ended(assembly);
	}

	private static <T> T ended(InboundAssembly<T> assembly) {
		return Objects.requireNonNull(assembly.end(), "what a reader's assembly ended with");
	}

	/** Hands {@code data}'s readable bytes to {@code assembly} where they lie, a run of memory at a time. */
	private static void take(InboundAssembly<?> assembly, ByteBuf data) {
		if (!data.isReadable()) {
			return;
		}
		for (ByteBuffer run : data.nioBuffers(data.readerIndex(), data.readableBytes())) {
			if (run.hasRemaining()) {
				assembly.take(run.asReadOnlyBuffer());
			}
		}
	}

	@Override
	public void onError(Throwable failure) {
		if (cancelled) {
			// The receiver left: what ends the stream after that is nobody's concern.
			return;
		}
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
		if (done || cancelled) {
			return;
		}
		done = true;
		InboundAssembly<T> assembly = current;
		current = null;
		if (assembly == null) {
			downstream.onComplete();
		}
		else {
			downstream.onError(malformed("the payloads ended after " + filled + " of " + size + " bytes of parts"));
		}
	}

	private void fail(Throwable failure) {
		done = true;
		current = null;
		source().cancel();
		if (!cancelled) {
			downstream.onError(failure);
		}
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
