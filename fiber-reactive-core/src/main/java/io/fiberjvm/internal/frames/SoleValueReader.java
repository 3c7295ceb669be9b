package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToIntFunction;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ArrivingArray;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;

/**
 * Reads frames where the transport received them. A large frame that is a head and then one value (the layout
 * {@link ShippedValues#writeAfter} leaves room for), whose value is an array of numbers or bytes, has that array
 * filled straight from the frame's runs of bytes as they arrive: the value is never held as bytes on this side. Any
 * other frame, of that kind or another, is copied into an array of its own and given to {@code whole}, which decodes
 * it or hands it on. A head is of a fixed size, or says its size in its first bytes (a call's head, whose method
 * name and parameter types vary).
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

	/** The most bytes a head may say it takes; a frame whose head says more is read whole. */
	static final int MAX_HEAD = 64 << 10;

	private final ShippedValues values;
	/** The first bytes of a head, which say its size. */
	private final int prefix;
	/** The bytes of a head, given its first {@link #prefix} bytes; outside {@code prefix..MAX_HEAD} when it is not one. */
	private final ToIntFunction<ByteBuffer> room;
	private final Head<F> head;
	/** What a frame read as bytes becomes. */
	private final Function<byte[], F> whole;

	/** A reader of frames whose head takes {@code room} bytes. */
	SoleValueReader(ShippedValues values, int room, Head<F> head, Function<byte[], F> whole) {
		this(values, room, first -> room, head, whole);
	}

	/** A reader of frames whose head's first {@code prefix} bytes say its size, as {@code room} reads it from them. */
	SoleValueReader(ShippedValues values, int prefix, ToIntFunction<ByteBuffer> room, Head<F> head, Function<byte[], F> whole) {
		this.values = Objects.requireNonNull(values, "values");
		this.prefix = prefix;
		this.room = room;
		this.head = head;
		this.whole = whole;
	}

	@Override
	public InboundAssembly<F> begin(int size) {
		if (size < Math.max(LARGE, prefix + 1)) {
			return InboundReader.bytes().map(whole).begin(size);
		}
		return new Arriving(size);
	}

	/** A large frame: its head first, then its value as an array being filled, or else all of it as bytes. */
	private final class Arriving implements InboundAssembly<F> {

		private final int size;
		/** The head's first bytes, then, once they say its size, the head and the value's first byte, which says what the value is. */
		private byte[] first;
		private int firstFilled;
		/** The head's size, once its first bytes are in. */
		private int headSize = -1;
		private @Nullable ArrivingArray value;
		private @Nullable Function<Object, F> frame;
		private @Nullable InboundAssembly<byte[]> assembled;

		Arriving(int size) {
			this.size = size;
			this.first = new byte[prefix];
		}

		@Override
		public void take(ByteBuffer bytes) {
			InboundAssembly<byte[]> all = assembled;
			if (all != null) {
				all.take(bytes);
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
			if (headSize < 0) {
				headSize = room.applyAsInt(ByteBuffer.wrap(first).asReadOnlyBuffer());
				if (headSize >= prefix && headSize <= MAX_HEAD && headSize < size) {
					first = Arrays.copyOf(first, headSize + 1);
				}
				else {
					readWhole();
				}
			}
			else {
				frame = head.sole(ByteBuffer.wrap(first, 0, headSize), size - headSize);
				value = frame == null ? null : values.arriving(first[headSize], size - first.length);
				if (value == null) {
					readWhole();
				}
			}
			if (in.hasRemaining()) {
				take(in);
			}
		}

		/** Not a head and one such value: the frame is read as bytes, those taken so far first. */
		private void readWhole() {
			InboundAssembly<byte[]> all = InboundReader.bytes().begin(size);
			all.take(ByteBuffer.wrap(first, 0, firstFilled));
			assembled = all;
		}

		@Override
		public F end() {
			InboundAssembly<byte[]> all = assembled;
			if (all != null) {
				return whole.apply(all.end());
			}
			if (value == null || frame == null) {
				throw new IllegalStateException("a frame of " + size + " bytes ended after " + firstFilled);
			}
			return frame.apply(value.end());
		}
	}
}
