package io.fiberjvm.pool;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.fiberjvm.codec.CodecException;

import static io.fiberjvm.codec.FrameFields.count;
import static io.fiberjvm.codec.FrameFields.ensureConsumed;
import static io.fiberjvm.codec.FrameFields.readBytes;
import static io.fiberjvm.codec.FrameFields.readStrings;
import static io.fiberjvm.codec.FrameFields.writeBytes;
import static io.fiberjvm.codec.FrameFields.writeStrings;
import io.fiberjvm.codec.ShippedValues;

/**
 * The two frames of a worker session: a chunk of tasks going down to the worker, and results coming
 * back up. ShippedValues inside are Java-serialized bytes; this class only lays them out.
 */
final class TaskFrames {

	private TaskFrames() {
	}

	/** One task inside a chunk: its attempt id and serialized argument ({@code null} for a null argument). */
	record TaskBytes(long id, byte[] arg) {
	}

	/**
	 * Tasks of one function. {@code function} is present the first time a worker sees the function
	 * (workers keep recently used functions, mirroring {@link FunctionCache}); {@code allow} names the
	 * packages the worker may read for this chunk.
	 */
	record Chunk(long functionId, byte[] function, List<String> allow, List<TaskBytes> tasks) {
	}

	/** One task's answer: a value (with the package its class may be read from) or an encoded remote error. */
	record Answer(long id, boolean failed, String allow, byte[] bytes) {
	}

	/** Answers for a chunk, or part of one; {@code lastOfChunk} ends it. */
	record Results(boolean lastOfChunk, long elapsedNanos, List<Answer> answers) {
	}

	static byte[] encode(Chunk chunk) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + chunk.tasks().size() * 96);
		try (DataOutputStream out = new DataOutputStream(bytes)) {
			out.writeLong(chunk.functionId());
			writeBytes(out, chunk.function());
			writeStrings(out, chunk.allow());
			out.writeInt(chunk.tasks().size());
			for (TaskBytes task : chunk.tasks()) {
				out.writeLong(task.id());
				writeBytes(out, task.arg());
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return bytes.toByteArray();
	}

	static Chunk decodeChunk(byte[] frame) {
		try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(frame))) {
			long functionId = in.readLong();
			byte[] function = readBytes(in, frame.length);
			List<String> allow = readStrings(in, frame.length, "patterns");
			int n = count(in.readInt(), frame.length, "tasks");
			List<TaskBytes> tasks = new ArrayList<>(n);
			for (int i = 0; i < n; i++) {
				tasks.add(new TaskBytes(in.readLong(), readBytes(in, frame.length)));
			}
			ensureConsumed(in, "chunk");
			return new Chunk(functionId, function, allow, tasks);
		}
		catch (IOException e) {
			throw new CodecException("malformed task chunk of " + frame.length + " bytes: " + e, e);
		}
	}

	static byte[] encode(Results results) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + results.answers().size() * 96);
		try (DataOutputStream out = new DataOutputStream(bytes)) {
			out.writeBoolean(results.lastOfChunk());
			out.writeLong(results.elapsedNanos());
			out.writeInt(results.answers().size());
			for (Answer answer : results.answers()) {
				out.writeLong(answer.id());
				out.writeBoolean(answer.failed());
				out.writeUTF(answer.allow() == null ? "" : answer.allow());
				writeBytes(out, answer.bytes());
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return bytes.toByteArray();
	}

	static Results decodeResults(byte[] frame) {
		try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(frame))) {
			boolean last = in.readBoolean();
			long elapsed = in.readLong();
			int n = count(in.readInt(), frame.length, "answers");
			List<Answer> answers = new ArrayList<>(n);
			for (int i = 0; i < n; i++) {
				long id = in.readLong();
				boolean failed = in.readBoolean();
				String allow = in.readUTF();
				answers.add(new Answer(id, failed, allow.isEmpty() ? null : allow, readBytes(in, frame.length)));
			}
			ensureConsumed(in, "result");
			return new Results(last, elapsed, answers);
		}
		catch (IOException e) {
			throw new CodecException("malformed result frame of " + frame.length + " bytes: " + e, e);
		}
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String utf8(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}
}
