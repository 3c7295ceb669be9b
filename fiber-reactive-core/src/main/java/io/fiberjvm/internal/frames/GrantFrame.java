package io.fiberjvm.internal.frames;

/** Room for more items, granted by a queue's host to one producer. */
public final class GrantFrame {

	private GrantFrame() {
	}

	public static byte[] encode(long items) {
		return FrameWriter.of(FrameKind.GRANT, 0, 8).putLong(items).array();
	}

	public static long decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.GRANT);
		long items = in.readLong();
		in.end();
		if (items < 0) {
			throw in.malformed("a grant of " + items + " items");
		}
		return items;
	}
}
