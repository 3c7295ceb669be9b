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

	/** What a head in front of a frame's sole value says. */
	@FunctionalInterface
	interface Head<F> {

		/**
		 * What makes the frame from its value, when {@code head} (the frame's first bytes up to the value, big-endian)
		 * is the head of a frame whose sole value is its last {@code valueBytes} bytes; null when it says otherwise.
		 */
		@Nullable Function<Object, F> sole(ByteBuffer head, int valueBytes);
	}

	private final ShippedValues values;
	/** The bytes of a head. */
	private final int room;
	private final Head<F> head;
	private final Function<byte[], F> decode;

	SoleValueReader(ShippedValues values, int room, Head<F> head, Function<byte[], F> decode) {
		this.values = Objects.requireNonNull(values, "values");
		this.room = room;
		this.head = head;
		this.decode = decode;
	}

	@Override
	public InboundAssembly<F> begin(int size) {
		if (size < Math.max(LARGE, room + 1)) {
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
		private final byte[] first;
		private int firstFilled;
		private @Nullable ArrivingArray value;
		private @Nullable Function<Object, F> frame;
		private @Nullable InboundAssembly<byte[]> whole;

		Arriving(int size) {
			this.size = size;
			this.first = new byte[room + 1];
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
			int n = Math.min(first.length - firstFilled, in.remaining());
			in.get(first, firstFilled, n);
			firstFilled += n;
			if (firstFilled < first.length) {
				return;
			}
			frame = head.sole(ByteBuffer.wrap(first, 0, room), size - room);
			value = frame == null ? null : values.arriving(first[room], size - first.length);
			if (value == null) {
				whole = InboundReader.bytes().begin(size);
				whole.take(ByteBuffer.wrap(first));
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
				throw new IllegalStateException("a frame of " + size + " bytes ended after " + firstFilled);
			}
			return frame.apply(value.end());
		}
	}
}
