package io.fiberjvm.internal.frames;

/** A manager's first word to its parent: it takes calls now, and serves its shared objects at this address. */
public final class ReadyFrame {

	private ReadyFrame() {
	}

	public static byte[] encode(String address) {
		byte[] text = FrameWriter.utf8(address);
		return FrameWriter.of(FrameKind.READY, 0, FrameWriter.sizeOf(text)).putBytes(text).array();
	}

	/** The address shared objects are served at, {@code host:port}. */
	public static String decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.READY);
		String address = in.readRequiredText("address");
		in.end();
		return address;
	}
}
