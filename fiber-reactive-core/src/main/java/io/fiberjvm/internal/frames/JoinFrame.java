package io.fiberjvm.internal.frames;

import io.fiberjvm.transport.Endpoint;

/**
 * A ring member's join: its rank, where it listens for its peers' messages, and (rank 0) a port it found free
 * for a framework's own rendezvous.
 *
 * @param rank the member's rank
 * @param address where the member listens
 * @param frameworkPort rank 0's free port, 0 for the others
 */
public record JoinFrame(int rank, Endpoint address, int frameworkPort) {

	public byte[] encode() {
		byte[] text = FrameWriter.utf8(address.toString());
		return FrameWriter.of(FrameKind.JOIN, 0, 4 + FrameWriter.sizeOf(text) + 4)
				.putInt(rank).putBytes(text).putInt(frameworkPort).array();
	}

	public static JoinFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.JOIN);
		int rank = in.readInt();
		Endpoint address = endpoint(in, in.readRequiredText("address"));
		int port = in.readInt();
		in.end();
		return new JoinFrame(rank, address, port);
	}

	static Endpoint endpoint(FrameReader in, String text) {
		try {
			return Endpoint.parse(text);
		}
		catch (IllegalArgumentException e) {
			throw in.malformed(String.valueOf(e.getMessage()));
		}
	}
}
