package io.fiberjvm.internal.frames;

/** A shared value's owner telling a JVM that fetched it that the value is released: drop its copy. */
public final class DropFrame {

	private DropFrame() {
	}

	public static byte[] encode(String id) {
		byte[] text = FrameWriter.utf8(id);
		return FrameWriter.of(FrameKind.DROP, 0, FrameWriter.sizeOf(text)).putBytes(text).array();
	}

	/** The id of the shared value to drop. */
	public static String decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.DROP);
		String id = in.readRequiredText("shared value id");
		in.end();
		return id;
	}
}
