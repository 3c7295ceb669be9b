package io.fiberjvm.internal.frames;

/**
 * A request for a shared value's bytes, from a JVM that uses it to the JVM that shared it; the answer is the
 * value in one {@link ValueFrame}, of any size.
 *
 * @param id the shared value's id
 * @param requester where the requesting runtime listens, {@code host:port}: where its drop notice goes
 */
public record FetchFrame(String id, String requester) {

	public byte[] encode() {
		byte[] idText = FrameWriter.utf8(id);
		byte[] address = FrameWriter.utf8(requester);
		return FrameWriter.of(FrameKind.FETCH, 0, FrameWriter.sizeOf(idText) + FrameWriter.sizeOf(address))
				.putBytes(idText).putBytes(address).array();
	}

	public static FetchFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.FETCH);
		String id = in.readRequiredText("shared value id");
		String requester = in.readRequiredText("requester address");
		in.end();
		return new FetchFrame(id, requester);
	}
}
