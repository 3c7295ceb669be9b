package io.fiberjvm.internal.frames;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;

/** The answer to one manager call or shared-object operation. */
public final class AnswerFrame {

	private AnswerFrame() {
	}

	/** The bytes in front of an answer's value in its frame. */
	static final int ROOM = FrameHeaderCodec.SIZE + Answer.HEAD;

	/**
	 * The answer carrying {@code value}, written so that a large one becomes its answer frame without being copied
	 * ({@link ShippedValues#writeAfter}); refused as {@link ShippedValues#write} refuses it.
	 */
	public static Answer answer(long id, ShippedValues values, @Nullable Object value, Object what) {
		return new Answer(id, false, values.writeAfter(ROOM, value, what));
	}

	public static byte[] encode(Answer answer) {
		FrameWriter head = FrameWriter.inFront(FrameKind.ANSWER, 0, answer.value(), ROOM);
		if (head != null) {
			answer.writeHead(head);
			return head.array();
		}
		FrameWriter out = FrameWriter.of(FrameKind.ANSWER, 0, answer.size());
		answer.write(out);
		return out.array();
	}

	/**
	 * Reads the frames a manager sends up its session where the transport received them: an answer whose value is a
	 * large array of numbers or bytes goes straight into its array; any other frame, answers among them, comes whole.
	 */
	public static InboundReader<Arrived<Answer>> reader(ShippedValues values) {
		return new SoleValueReader<>(values, ROOM, (head, valueBytes) -> {
			if (head.get() != FrameKind.ANSWER.code() || head.get() != 0) {
				return null;
			}
			Function<Object, Answer> answer = Answer.sole(head, valueBytes);
			return answer == null ? null : value -> Arrived.read(answer.apply(value));
		}, Arrived::whole);
	}

	public static Answer decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ANSWER);
		Answer answer = Answer.read(in);
		in.end();
		return answer;
	}
}
