package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ArrivingArray;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;

/**
 * Reads frames of one kind where the transport received them. A large frame that is a head of fixed size and then
 * one value (the layout {@link ShippedValues#writeAfter} leaves room for), whose value is an array of numbers or
 * bytes, has that array filled straight from the frame's runs of bytes as they arrive: the value is never held as
 * bytes on this side. Any other frame is copied into an array of its own and decoded whole, as before.
 *
 * @param <F> the frame
 */
final class SoleValueReader<F> implements InboundReader<F> {

	/** Frames from this size on are read as they arrive: the size from which values are written with room. */
	static final int LARGE = ShippedValues.ROOMY;

	/** The head in front of a frame's sole value, and the frame the two make. */
	interface Layout<F> {

		/** The bytes of the head. */
		int room();

		/**
		 * What makes the frame from its value, when {@code head} (the frame's first {@link #room} bytes, big-endian)
		 * is the head of a frame whose sole value is its last {@code valueBytes} bytes; null when it says otherwise.
		 */
		@Nullable Function<Object, F> sole(ByteBuffer head, int valueBytes);
	}

	private final ShippedValues values;
	private final Layout<F> layout;
	private final Function<byte[], F> decode;

	SoleValueReader(ShippedValues values, Layout<F> layout, Function<byte[], F> decode) {
		this.values = Objects.requireNonNull(values, "values");
		this.layout = layout;
		this.decode = decode;
	}

	@Override
	public InboundAssembly<F> begin(int size) {
		if (size < Math.max(LARGE, layout.room() + 1)) {
			InboundAssembly<byte[]> whole = InboundReader.bytes().begin(size);
			return new InboundAssembly<>() {
				@Override
				public void take(ByteBuffer bytes) {
					whole.take(bytes);
				}

				@Override
				public F end() {
					return decode.apply(whole.end());
				}
			};
		}
		return new Arriving(size);
	}

	/** A large frame: its head first, then its value as an array being filled, or else all of it as bytes. */
	private final class Arriving implements InboundAssembly<F> {

		private final int size;
		/** The head and the value's first byte, which says what the value is. */
		private final byte[] head;
		private int headFilled;
		private @Nullable ArrivingArray value;
		private @Nullable Function<Object, F> frame;
		private @Nullable InboundAssembly<byte[]> whole;

		Arriving(int size) {
			this.size = size;
			this.head = new byte[layout.room() + 1];
		}

		@Override
		public void take(ByteBuffer bytes) {
			if (whole != null) {
				whole.take(bytes);
				return;
			}
			if (value != null) {
				value.take(bytes);
				return;
			}
			ByteBuffer in = bytes.duplicate();
			int n = Math.min(head.length - headFilled, in.remaining());
			in.get(head, headFilled, n);
			headFilled += n;
			if (headFilled < head.length) {
				return;
			}
			frame = layout.sole(ByteBuffer.wrap(head, 0, layout.room()), size - layout.room());
			value = frame == null ? null : values.arriving(head[layout.room()], size - head.length);
			if (value == null) {
				whole = InboundReader.bytes().begin(size);
				whole.take(ByteBuffer.wrap(head));
			}
			if (in.hasRemaining()) {
				take(in);
			}
		}

		@Override
		public F end() {
			if (whole != null) {
				return decode.apply(whole.end());
			}
			if (value == null || frame == null) {
				throw new IllegalStateException("a frame of " + size + " bytes ended after " + headFilled);
			}
			return frame.apply(value.end());
		}
	}
}
