package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.BulkCopy;

/**
 * Reads one frame's fields after checking its header, refusing whatever a malformed or hostile frame could
 * make of them: a length or count the frame cannot hold, a frame that ends inside a field, bytes left over.
 * Every refusal is a {@link CodecException} that names the frame's kind and size.
 */
final class FrameReader {

	private final byte[] frame;
	private final ByteBuffer in;
	private final FrameKind kind;

	private FrameReader(byte[] frame, FrameKind kind) {
		this.frame = frame;
		this.kind = kind;
		this.in = ByteBuffer.wrap(frame, FrameHeaderCodec.SIZE, frame.length - FrameHeaderCodec.SIZE);
	}

	/** A reader of {@code frame}'s body; fails unless the frame is of {@code expected} kind, with no flags set. */
	static FrameReader open(byte[] frame, FrameKind expected) {
		return open(frame, expected, 0);
	}

	/** A reader of {@code frame}'s body; fails unless the frame is of {@code expected} kind with no flags outside {@code flags}. */
	static FrameReader open(byte[] frame, FrameKind expected, int flags) {
		FrameHeaderCodec.check(frame, expected);
		FrameReader reader = new FrameReader(frame, expected);
		FrameHeaderCodec.checkFlags(reader.flags(), flags, expected, frame.length);
		return reader;
	}

	int flags() {
		return FrameHeaderCodec.flags(frame);
	}

	/** The frame's bytes, and where the next field starts in them. */
	byte[] frame() {
		return frame;
	}

	int position() {
		return in.position();
	}

	int remaining() {
		return in.remaining();
	}

	byte readByte() {
		need(1, "a flag");
		return in.get();
	}

	int readInt() {
		need(4, "a number");
		return in.getInt();
	}

	long readLong() {
		need(8, "a number");
		return in.getLong();
	}

	/** A length-prefixed byte string; null for length -1. */
	byte @Nullable [] readBytes() {
		ByteBuffer slice = readSlice();
		if (slice == null) {
			return null;
		}
		byte[] value = new byte[slice.remaining()];
		BulkCopy.get(slice, value, 0, value.length);
		return value;
	}

	/**
	 * A length-prefixed byte string as a view of the frame, not a copy; null for length -1. The view is a slice
	 * (it starts inside the frame's array), which {@link FrameWriter#inFront} never takes for a value of its own.
	 */
	@Nullable ByteBuffer readSlice() {
		int length = readInt();
		if (length == -1) {
			return null;
		}
		if (length < 0 || length > in.remaining()) {
			throw malformed("a length of " + length + " with " + in.remaining() + " bytes left");
		}
		ByteBuffer slice = in.slice().limit(length);
		in.position(in.position() + length);
		return slice;
	}

	/** A length-prefixed UTF-8 text; null for length -1. */
	@Nullable String readText() {
		byte[] bytes = readBytes();
		return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
	}

	/** A text that must be there. */
	String readRequiredText(String what) {
		String text = readText();
		if (text == null) {
			throw malformed("no " + what);
		}
		return text;
	}

	/** A count of texts, then each. */
	List<String> readTexts(String what) {
		int n = count(what, 4);
		List<String> texts = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			texts.add(readRequiredText(what));
		}
		return texts;
	}

	/**
	 * A count of {@code what}, each taking at least {@code minBytes}: refused when what is left of the frame
	 * could not hold that many, so a hostile count cannot make a reader allocate more than the frame's size.
	 */
	int count(String what, int minBytes) {
		int n = readInt();
		if (n < 0 || n > in.remaining() / minBytes) {
			throw malformed("a count of " + n + " " + what + " with " + in.remaining() + " bytes left");
		}
		return n;
	}

	/** Fails if anything follows the frame's last field. */
	void end() {
		if (in.hasRemaining()) {
			throw malformed(in.remaining() + " bytes left over after the " + kind.description());
		}
	}

	CodecException malformed(String detail) {
		return FrameHeaderCodec.malformed(kind, frame.length, detail);
	}

	private void need(int bytes, String what) {
		if (in.remaining() < bytes) {
			throw malformed("it is cut short inside " + what);
		}
	}
}
