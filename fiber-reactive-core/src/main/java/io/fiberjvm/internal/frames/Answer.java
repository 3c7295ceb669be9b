package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.Outbound;

/**
 * The answer to one task or call, as pools' result frames and managers' answers both carry it: a value, or an
 * encoded remote error. An answer read from a frame holds a view of the frame's bytes, not a copy; or, when its
 * frame was read as it arrived ({@link ResultsFrame#reader}, {@link AnswerFrame#reader}), the value itself, which no answer sent holds.
 *
 * @param id the task attempt's or call's id
 * @param failed whether {@code value} is an error as {@link io.fiberjvm.RemoteException#encode} wrote it, in UTF-8
 * @param value the value's bytes ({@code null} for a null value or one already read), or the error
 * @param decoded the value already read, or null
 */
public record Answer(long id, boolean failed, @Nullable ByteBuffer value, @Nullable Object decoded) {

	/** The bytes of an answer in front of its value: its id, flag and length. */
	static final int HEAD = 8 + 1 + 4;

	public Answer {
		if (decoded != null && (value != null || failed)) {
			throw new IllegalArgumentException("an answer holds its value's bytes, an error or the value read, only one");
		}
	}

	/** An answer carrying a value's bytes ({@code null} for a null value), or an error. */
	public Answer(long id, boolean failed, @Nullable ByteBuffer value) {
		this(id, failed, value, null);
	}

	/** An answer carrying a value's bytes ({@code null} for a null value). */
	public static Answer of(long id, byte @Nullable [] value) {
		return new Answer(id, false, value == null ? null : ByteBuffer.wrap(value));
	}

	/** A failed answer carrying {@code error}, which {@link io.fiberjvm.RemoteException#encode} wrote. */
	public static Answer failure(long id, String error) {
		return new Answer(id, true, ByteBuffer.wrap(error.getBytes(StandardCharsets.UTF_8)));
	}

	/** The error of a failed answer, as text. */
	public String error() {
		return value == null ? "" : StandardCharsets.UTF_8.decode(value.duplicate()).toString();
	}

	/** The value: the one already read, or what {@code values} reads from its bytes. */
	public @Nullable Object result(ShippedValues values, Object what) {
		return decoded != null ? decoded : values.read(value, what);
	}

	/**
	 * {@code frame}, which carries {@code answers}, as a datum to send; the buffers of their values go to
	 * {@code giveBack} once nothing reads them (to be written into again): at once when the frame is a copy of them,
	 * else, when the frame is the sole answer's own array, once the transport lets it go.
	 */
	public static Outbound outbound(byte[] frame, List<Answer> answers, Consumer<@Nullable ByteBuffer> giveBack) {
		ByteBuffer sole = answers.size() == 1 ? answers.get(0).value() : null;
		if (sole != null && sole.hasArray() && sole.array() == frame) {
			return Outbound.of(frame, () -> giveBack.accept(sole));
		}
		answers.forEach(answer -> giveBack.accept(answer.value()));
		return Outbound.of(frame);
	}

	/** The bytes this answer takes in a frame. */
	int size() {
		return 8 + 1 + FrameWriter.sizeOf(sent());
	}

	/** The bytes of the value or error, or 0 for a null value. */
	public int valueBytes() {
		return value == null ? 0 : value.remaining();
	}

	void write(FrameWriter out) {
		out.putLong(id).putByte(failed ? 1 : 0).putBytes(sent());
	}

	/** Writes what comes before the value, for a frame {@link FrameWriter#inFront} of it. */
	void writeHead(FrameWriter out) {
		ByteBuffer sent = sent();
		out.putLong(id).putByte(failed ? 1 : 0).putInt(sent == null ? 0 : sent.remaining());
	}

	/** The value's bytes to send; an answer read as it arrived has none. */
	private @Nullable ByteBuffer sent() {
		if (decoded != null) {
			throw new IllegalStateException("an answer read as it arrived has no bytes to send on");
		}
		return value;
	}

	/**
	 * What makes the answer from its value read as it arrived, when {@code head} (at an answer's id) is the head of an
	 * answer carrying a value of {@code valueBytes} bytes, not an error; null when it says otherwise.
	 */
	static @Nullable Function<Object, Answer> sole(ByteBuffer head, int valueBytes) {
		long id = head.getLong();
		if (head.get() != 0 || head.getInt() != valueBytes) {
			return null;
		}
		return value -> new Answer(id, false, null, value);
	}

	static Answer read(FrameReader in) {
		long id = in.readLong();
		byte failed = in.readByte();
		if (failed != 0 && failed != 1) {
			throw in.malformed("an answer flag of " + failed);
		}
		return new Answer(id, failed == 1, in.readSlice());
	}
}
