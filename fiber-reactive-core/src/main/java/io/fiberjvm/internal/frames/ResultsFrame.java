package io.fiberjvm.internal.frames;

import java.util.ArrayList;
import java.util.List;

/**
 * Answers to a chunk's tasks, or to part of them, from a worker to its pool. The last frame of a chunk
 * says so (a header flag) and carries the time the worker spent on the whole chunk.
 *
 * @param lastOfChunk whether this frame ends its chunk
 * @param elapsedNanos the chunk's running time, in the last frame of it
 * @param answers one per task, in the order they ran
 */
public record ResultsFrame(boolean lastOfChunk, long elapsedNanos, List<Answer> answers) {

	private static final int LAST_OF_CHUNK = 1;

	public byte[] encode() {
		List<byte[]> patterns = new ArrayList<>(answers.size());
		int size = 8 + 4;
		for (Answer answer : answers) {
			byte[] allow = FrameWriter.utf8(answer.allow());
			patterns.add(allow);
			size += answer.size(allow);
		}
		FrameWriter out = FrameWriter.of(FrameKind.RESULTS, lastOfChunk ? LAST_OF_CHUNK : 0, size)
				.putLong(elapsedNanos)
				.putInt(answers.size());
		for (int i = 0; i < answers.size(); i++) {
			answers.get(i).write(out, patterns.get(i));
		}
		return out.array();
	}

	public static ResultsFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.RESULTS, LAST_OF_CHUNK);
		boolean last = (in.flags() & LAST_OF_CHUNK) != 0;
		long elapsed = in.readLong();
		// Each answer takes at least its id, its flag and two lengths.
		int n = in.count("answers", 17);
		List<Answer> answers = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			answers.add(Answer.read(in));
		}
		in.end();
		return new ResultsFrame(last, elapsed, answers);
	}
}
