package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;

/**
 * Answers to a chunk's tasks, or to part of them, from a worker to its pool. The last frame of a chunk
 * says so (a header flag) and carries the time the worker spent on the whole chunk. A worker whose task outlived
 * its deadline and its grace says so too (another flag): its answer is the timeout, and its JVM must be replaced.
 *
 * @param lastOfChunk whether this frame ends its chunk
 * @param elapsedNanos the chunk's running time, in the last frame of it
 * @param answers one per task, in the order they ran
 * @param stuck whether the worker is stuck in a task that did not stop when interrupted
 */
public record ResultsFrame(boolean lastOfChunk, long elapsedNanos, List<Answer> answers, boolean stuck) {

	private static final int LAST_OF_CHUNK = 1;
	private static final int STUCK = 2;

	/** Answers from a worker that goes on. */
	public ResultsFrame(boolean lastOfChunk, long elapsedNanos, List<Answer> answers) {
		this(lastOfChunk, elapsedNanos, answers, false);
	}

	private int flags() {
		return (lastOfChunk ? LAST_OF_CHUNK : 0) | (stuck ? STUCK : 0);
	}

	/** The bytes in front of the value of a frame's sole answer. */
	static final int ROOM = FrameHeaderCodec.SIZE + 8 + 4 + Answer.HEAD;

	/**
	 * The answer carrying {@code value}, written so that a large one, alone in a results frame, becomes that frame
	 * without being copied ({@link ShippedValues#writeAfter}); refused as {@link ShippedValues#write} refuses it.
	 */
	public static Answer answer(long id, ShippedValues values, @Nullable Object value, Object what) {
		return new Answer(id, false, values.writeAfter(ROOM, value, what));
	}

	public byte[] encode() {
		if (answers.size() == 1) {
			FrameWriter head = FrameWriter.inFront(FrameKind.RESULTS, flags(), answers.get(0).value(), ROOM);
			if (head != null) {
				head.putLong(elapsedNanos).putInt(1);
				answers.get(0).writeHead(head);
				return head.array();
			}
		}
		int size = 8 + 4;
		for (Answer answer : answers) {
			size += answer.size();
		}
		FrameWriter out = FrameWriter.of(FrameKind.RESULTS, flags(), size)
				.putLong(elapsedNanos)
				.putInt(answers.size());
		for (Answer answer : answers) {
			answer.write(out);
		}
		return out.array();
	}

	/**
	 * Reads result frames where the transport received them: a large result alone in its frame, an array of numbers
	 * or bytes, goes straight into its array; any other frame is {@link #decode}d.
	 */
	public static InboundReader<ResultsFrame> reader(ShippedValues values) {
		return new SoleValueReader<>(values, ROOM, ResultsFrame::sole, ResultsFrame::decode);
	}

	/** What makes a results frame of one answer from its value, if {@code head} is of one. */
	private static @Nullable Function<Object, ResultsFrame> sole(ByteBuffer head, int valueBytes) {
		byte kind = head.get();
		int flags = head.get();
		if (kind != FrameKind.RESULTS.code() || (flags & ~(LAST_OF_CHUNK | STUCK)) != 0) {
			return null;
		}
		long elapsed = head.getLong();
		if (head.getInt() != 1) {
			return null;
		}
		Function<Object, Answer> answer = Answer.sole(head, valueBytes);
		return answer == null ? null
				: value -> new ResultsFrame((flags & LAST_OF_CHUNK) != 0, elapsed, List.of(answer.apply(value)), (flags & STUCK) != 0);
	}

	public static ResultsFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.RESULTS, LAST_OF_CHUNK | STUCK);
		boolean last = (in.flags() & LAST_OF_CHUNK) != 0;
		boolean stuck = (in.flags() & STUCK) != 0;
		long elapsed = in.readLong();
		// Each answer takes at least its id, its flag and a length.
		int n = in.count("answers", 13);
		List<Answer> answers = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			answers.add(Answer.read(in));
		}
		in.end();
		return new ResultsFrame(last, elapsed, answers, stuck);
	}
}
