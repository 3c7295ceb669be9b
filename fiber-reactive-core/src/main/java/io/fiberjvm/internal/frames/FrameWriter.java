package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.BulkCopy;

/**
 * Writes one frame of a known size: the header, then fields in the order its kind's codec reads them.
 * Numbers are big-endian; byte strings and texts carry their length first, -1 for null.
 */
final class FrameWriter {

	private final ByteBuffer out;

	private FrameWriter(ByteBuffer out) {
		this.out = out;
	}

	/** A frame of {@code kind} with {@code flags} and room for {@code bodyBytes} after the header. */
	static FrameWriter of(FrameKind kind, int flags, int bodyBytes) {
		ByteBuffer out = ByteBuffer.allocate(FrameHeaderCodec.SIZE + bodyBytes);
		out.put(kind.code()).put((byte) flags);
		return new FrameWriter(out);
	}

	/** A frame of {@code kind} with {@code flags} written into {@code target} from its position, which moves. */
	static FrameWriter into(ByteBuffer target, FrameKind kind, int flags) {
		target.put(kind.code()).put((byte) flags);
		return new FrameWriter(target);
	}

	/**
	 * A frame of {@code kind} with {@code flags} written into the {@code room} bytes in front of {@code value} (as
	 * {@link io.fiberjvm.codec.ShippedValues#writeAfter} leaves them), the value being the rest of the frame: a large
	 * value is sent where it lies instead of copied. Null when {@code value} is not such a buffer, the whole of a
	 * writable array positioned {@code room} bytes in; the frame is then written the usual way. A value read from a
	 * received frame never is one ({@link FrameReader#readSlice} hands out slices, which start inside their array),
	 * so forwarding it copies it and leaves the frame it came in as it was. The codec writes the {@code room} bytes
	 * of its fields before the value, the value's length last.
	 */
	static @Nullable FrameWriter inFront(FrameKind kind, int flags, @Nullable ByteBuffer value, int room) {
		if (value == null || !value.hasArray() || value.arrayOffset() != 0 || value.position() != room
				|| value.limit() != value.array().length) {
			return null;
		}
		ByteBuffer out = ByteBuffer.wrap(value.array(), 0, room);
		out.put(kind.code()).put((byte) flags);
		return new FrameWriter(out);
	}

	/** The bytes a length-prefixed byte string takes. */
	static int sizeOf(byte @Nullable [] bytes) {
		return 4 + (bytes == null ? 0 : bytes.length);
	}

	/** The bytes length-prefixed texts take, given their UTF-8 forms. */
	static int sizeOf(List<byte[]> texts) {
		int size = 4;
		for (byte[] text : texts) {
			size += 4 + text.length;
		}
		return size;
	}

	/** The bytes a count of byte strings and each of them, length-prefixed, take, given their remaining bytes. */
	static int sizeOfAll(List<? extends @Nullable ByteBuffer> buffers) {
		int size = 4;
		for (ByteBuffer buffer : buffers) {
			size += sizeOf(buffer);
		}
		return size;
	}

	static byte @Nullable [] utf8(@Nullable String text) {
		return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
	}

	static List<byte[]> utf8(List<String> texts) {
		return texts.stream().map(text -> text.getBytes(StandardCharsets.UTF_8)).toList();
	}

	FrameWriter putByte(int value) {
		out.put((byte) value);
		return this;
	}

	FrameWriter putInt(int value) {
		out.putInt(value);
		return this;
	}

	FrameWriter putLong(long value) {
		out.putLong(value);
		return this;
	}

	/** A length-prefixed byte string (or text in UTF-8); null as length -1. */
	FrameWriter putBytes(byte @Nullable [] bytes) {
		if (bytes == null) {
			out.putInt(-1);
		}
		else {
			BulkCopy.put(out.putInt(bytes.length), bytes, 0, bytes.length);
		}
		return this;
	}

	/** The bytes a length-prefixed byte string of {@code bytes}' remaining bytes takes. */
	static int sizeOf(@Nullable ByteBuffer bytes) {
		return 4 + (bytes == null ? 0 : bytes.remaining());
	}

	/** The remaining bytes of {@code bytes}, length-prefixed, without moving its position; null as length -1. */
	FrameWriter putBytes(@Nullable ByteBuffer bytes) {
		if (bytes == null) {
			out.putInt(-1);
		}
		else {
			BulkCopy.put(out.putInt(bytes.remaining()), bytes);
		}
		return this;
	}

	/** Bytes without a length, to the end of the frame. */
	FrameWriter putRaw(byte[] bytes, int offset, int length) {
		BulkCopy.put(out, bytes, offset, length);
		return this;
	}

	/** A count of texts, then each, length-prefixed. */
	FrameWriter putTexts(List<byte[]> texts) {
		out.putInt(texts.size());
		texts.forEach(this::putBytes);
		return this;
	}

	/** A count of byte strings, then each one's remaining bytes, length-prefixed; no position moves. */
	FrameWriter putAll(List<? extends @Nullable ByteBuffer> buffers) {
		out.putInt(buffers.size());
		buffers.forEach(this::putBytes);
		return this;
	}

	/** The buffer, for a codec that writes a body straight into the frame. */
	ByteBuffer buffer() {
		return out;
	}

	/** The frame, which must be full (for a frame {@link #inFront} of a value, up to the value). */
	byte[] array() {
		if (out.hasRemaining()) {
			throw new IllegalStateException("a frame was written " + out.remaining() + " bytes short of its size");
		}
		return out.array();
	}
}
