package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

/**
 * A collective's message from one ring member to another: which collective (its number on each member), which step
 * of it, the sender's rank, then the message to the frame's end, of any size. The message is a value (a broadcast's
 * or a gathered one, as {@link ShippedValues#write} writes it; flag {@link #NULL} for a null value, which has no
 * bytes), or else the raw bytes of an all-reduce chunk.
 *
 * <p>A message is either its bytes, a view of the frame it came in, or, for a value read as it arrived
 * ({@link #reader}), the value itself.
 *
 * @param seq the collective's number
 * @param step the step within the collective
 * @param from the sender's rank
 * @param isValue whether the message is a value rather than a chunk
 * @param bytes the message's bytes, or null for a null value or one already read
 * @param decoded the value already read, or null
 */
public record MessageFrame(int seq, int step, int from, boolean isValue, @Nullable ByteBuffer bytes, @Nullable Object decoded) {

	/** The message is a value. */
	static final int VALUE = 1;
	/** The message is a null value. */
	static final int NULL = 2;

	/** The bytes in front of a message in its frame: the header and three numbers. */
	public static final int ROOM = FrameHeaderCodec.SIZE + 12;

	public MessageFrame {
		if (decoded != null && (bytes != null || !isValue)) {
			throw new IllegalArgumentException("a message holds its bytes or the value read, only one");
		}
		if (!isValue && bytes == null) {
			throw new IllegalArgumentException("a chunk has bytes");
		}
	}

	/**
	 * The frame of a value {@link ShippedValues#writeAfter} wrote with {@link #ROOM} bytes in front (null for a null
	 * value): that array itself, its room filled in, when it is one.
	 */
	public static byte[] value(int seq, int step, int from, @Nullable ByteBuffer encoded) {
		int flags = encoded == null ? VALUE | NULL : VALUE;
		FrameWriter head = FrameWriter.inFront(FrameKind.MESSAGE, flags, encoded, ROOM);
		if (head != null) {
			return head.putInt(seq).putInt(step).putInt(from).array();
		}
		int bytes = encoded == null ? 0 : encoded.remaining();
		FrameWriter out = FrameWriter.of(FrameKind.MESSAGE, flags, ROOM - FrameHeaderCodec.SIZE + bytes)
				.putInt(seq).putInt(step).putInt(from);
		if (encoded != null) {
			out.buffer().put(encoded.duplicate());
		}
		return out.array();
	}

	/**
	 * The frame of a chunk of {@code size} bytes that {@code body} writes, as a datum to send
	 * ({@link Outbound#of(int, Consumer)}).
	 */
	public static Outbound chunk(int seq, int step, int from, int size, Consumer<ByteBuffer> body) {
		return Outbound.of(ROOM + size, target -> {
			FrameWriter.into(target, FrameKind.MESSAGE, 0).putInt(seq).putInt(step).putInt(from);
			body.accept(target);
		});
	}

	public static MessageFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.MESSAGE, VALUE | NULL);
		int flags = in.flags();
		int seq = in.readInt();
		int step = in.readInt();
		int from = in.readInt();
		if (seq < 0 || step < 0 || from < 0 || flags == NULL) {
			throw in.malformed("collective " + seq + ", step " + step + ", rank " + from + ", flags " + flags);
		}
		boolean isNull = (flags & NULL) != 0;
		if (isNull && in.remaining() > 0) {
			throw in.malformed("a null value with " + in.remaining() + " bytes");
		}
		ByteBuffer bytes = isNull ? null : ByteBuffer.wrap(frame, in.position(), in.remaining()).slice();
		return new MessageFrame(seq, step, from, (flags & VALUE) != 0, bytes, null);
	}

	/**
	 * Reads messages where the transport received them: a value that is a large array of numbers or bytes goes
	 * straight into its array; any other message is read whole, then {@link #decode decoded}.
	 */
	public static InboundReader<MessageFrame> reader(ShippedValues values) {
		return new SoleValueReader<>(values, ROOM, (head, valueBytes) -> {
			if (head.get() != FrameKind.MESSAGE.code() || head.get() != VALUE) {
				return null;
			}
			int seq = head.getInt();
			int step = head.getInt();
			int from = head.getInt();
			if (seq < 0 || step < 0 || from < 0) {
				return null;
			}
			return value -> new MessageFrame(seq, step, from, true, null, value);
		}, MessageFrame::decode);
	}

	/** The chunk's bytes; a value where a chunk belongs is a {@link CodecException}. */
	public ByteBuffer chunk() {
		if (isValue || bytes == null) {
			throw new CodecException("rank " + from + " sent a value in collective #" + seq + ", step " + step
					+ ", where an all-reduce chunk belongs: do all members call the same collectives in the same order?");
		}
		return bytes;
	}

	/** The value: the one already read, or what {@code values} reads from its bytes; a chunk is a {@link CodecException}. */
	public @Nullable Object value(ShippedValues values, Object what) {
		if (!isValue) {
			throw new CodecException("rank " + from + " sent an all-reduce chunk in collective #" + seq + ", step " + step
					+ ", where " + what + " belongs: do all members call the same collectives in the same order?");
		}
		return decoded != null ? decoded : values.read(bytes, what);
	}
}
