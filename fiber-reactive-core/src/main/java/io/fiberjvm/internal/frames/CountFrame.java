package io.fiberjvm.internal.frames;

/** A number answered, such as a queue's size. */
public final class CountFrame {

	private CountFrame() {
	}

	public static byte[] encode(long count) {
		return FrameWriter.of(FrameKind.COUNT, 0, 8).putLong(count).array();
	}

	public static long decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.COUNT);
		long count = in.readLong();
		in.end();
		return count;
	}
}
