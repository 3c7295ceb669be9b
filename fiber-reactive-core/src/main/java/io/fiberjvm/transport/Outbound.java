package io.fiberjvm.transport;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One datum a connection sends on a request-channel, which the transport writes into memory of its own.
 *
 * <p>A datum made of pieces (a frame's header and the items of a batch, say) is written once, straight into the
 * memory the transport sends from, instead of first into one array that the transport then copies. The transport
 * calls {@link #writeTo} at most once, on any thread, at any time until the datum is sent, so what it writes must
 * not change after the datum is handed over; it may instead ask for {@link #toArray()} (a large datum, sent in
 * parts). A datum that is never sent is dropped without a call.
 */
public interface Outbound {

	/** The bytes {@link #writeTo} writes; not negative. */
	int size();

	/** Writes exactly {@link #size()} bytes into {@code target} from its position, which moves past them. */
	void writeTo(ByteBuffer target);

	/** The bytes as one array: the array itself for {@link #of(byte[])}, else a new one. */
	default byte[] toArray() {
		ByteBuffer target = ByteBuffer.allocate(size());
		writeTo(target);
		if (target.hasRemaining()) {
			throw new IllegalStateException("a datum of " + size() + " bytes wrote " + target.position());
		}
		return target.array();
	}

	/** The bytes of {@code data}, which the transport may send from where they lie; they must not change. */
	static Outbound of(byte[] data) {
		return new ArrayOutbound(Objects.requireNonNull(data, "data"));
	}

	/** A datum of {@code size} bytes that {@code writer} writes into a target it is given, from its position. */
	static Outbound of(int size, Consumer<ByteBuffer> writer) {
		if (size < 0) {
			throw new IllegalArgumentException("a datum's size must not be negative: " + size);
		}
		Objects.requireNonNull(writer, "writer");
		return new Outbound() {
			@Override
			public int size() {
				return size;
			}

			@Override
			public void writeTo(ByteBuffer target) {
				writer.accept(target);
			}
		};
	}
}
