package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;

/** A shared value's bytes, as {@link ShippedValues#write} writes them, from the JVM that shared it to one that fetched it. */
public final class ValueFrame {

	/** The bytes in front of the value in its frame: the header. */
	public static final int ROOM = FrameHeaderCodec.SIZE;

	private ValueFrame() {
	}

	/**
	 * The frame of a value {@link ShippedValues#writeAfter} wrote with {@link #ROOM} bytes in front: that array
	 * itself, its room filled in, when it is one.
	 */
	public static byte[] encode(ByteBuffer value) {
		FrameWriter head = FrameWriter.inFront(FrameKind.VALUE, 0, value, ROOM);
		if (head != null) {
			return head.array();
		}
		FrameWriter out = FrameWriter.of(FrameKind.VALUE, 0, value.remaining());
		out.buffer().put(value.duplicate());
		return out.array();
	}

	/** The value's bytes, a view of {@code frame}; an empty value is a {@link CodecException}. */
	public static ByteBuffer decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.VALUE);
		if (in.remaining() == 0) {
			throw in.malformed("no value");
		}
		return ByteBuffer.wrap(frame, in.position(), in.remaining()).slice();
	}

	/**
	 * Reads a value frame where the transport received it: a value that is a large array of numbers or bytes goes
	 * straight into its array; any other frame comes whole.
	 */
	public static InboundReader<Arrived<Object>> reader(ShippedValues values) {
		return new SoleValueReader<>(values, ROOM,
				(head, valueBytes) -> head.get() == FrameKind.VALUE.code() && head.get() == 0 ? Arrived::read : null, Arrived::whole);
	}
}
