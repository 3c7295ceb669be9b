package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;

/**
 * Part of a message sent in parts: a collective's message from one ring member to another (which collective,
 * its number on each member; which step of it; the sender's rank), or a shared value on its way to a JVM that
 * uses it (all three 0); then where the part starts in the whole message and how long the whole is, then the
 * part's bytes to the frame's end.
 *
 * @param seq the collective's number
 * @param step the step within the collective
 * @param from the sender's rank
 * @param offset where this part starts in the message
 * @param total the whole message's length
 * @param frame the frame the part is in
 * @param dataOffset where the part starts in {@code frame}
 * @param length the part's length
 */
public record SegmentFrame(int seq, int step, int from, int offset, int total, byte[] frame, int dataOffset, int length) {

	/** Bytes before a segment's data: the frame's header and the segment's five numbers. */
	public static final int HEADER = FrameHeaderCodec.SIZE + 20;

	/**
	 * A segment frame with everything but its data written, positioned where {@code length} bytes of data go;
	 * the buffer's array is the frame once they are written.
	 */
	public static ByteBuffer allocate(int seq, int step, int from, int offset, int total, int length) {
		FrameWriter out = FrameWriter.of(FrameKind.SEGMENT, 0, 20 + length)
				.putInt(seq).putInt(step).putInt(from).putInt(offset).putInt(total);
		return out.buffer();
	}

	/** A segment carrying {@code length} bytes of {@code data} from {@code dataOffset}. */
	public static byte[] encode(int seq, int step, int from, int offset, int total, byte[] data, int dataOffset, int length) {
		return allocate(seq, step, from, offset, total, length).put(data, dataOffset, length).array();
	}

	public static SegmentFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.SEGMENT);
		int seq = in.readInt();
		int step = in.readInt();
		int from = in.readInt();
		int offset = in.readInt();
		int total = in.readInt();
		if (seq < 0 || step < 0 || from < 0 || offset < 0 || total < 0) {
			throw in.malformed("collective " + seq + ", step " + step + ", rank " + from + ", part at " + offset + " of "
					+ total + " bytes");
		}
		return new SegmentFrame(seq, step, from, offset, total, frame, in.position(), in.remaining());
	}
}
