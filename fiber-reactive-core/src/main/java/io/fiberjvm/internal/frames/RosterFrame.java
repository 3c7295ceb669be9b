package io.fiberjvm.internal.frames;

import java.util.ArrayList;
import java.util.List;

import io.fiberjvm.transport.Endpoint;

/**
 * Every ring member's address in rank order, and rank 0's framework port: the parent's answer to each join
 * once all members have joined.
 *
 * @param members where each member listens, by rank
 * @param frameworkPort the port rank 0 found free for a framework's rendezvous
 */
public record RosterFrame(List<Endpoint> members, int frameworkPort) {

	public RosterFrame {
		members = List.copyOf(members);
	}

	public byte[] encode() {
		List<byte[]> addresses = FrameWriter.utf8(members.stream().map(Endpoint::toString).toList());
		return FrameWriter.of(FrameKind.ROSTER, 0, 4 + FrameWriter.sizeOf(addresses))
				.putInt(frameworkPort).putTexts(addresses).array();
	}

	public static RosterFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ROSTER);
		int port = in.readInt();
		List<Endpoint> members = new ArrayList<>();
		for (String address : in.readTexts("members")) {
			members.add(JoinFrame.endpoint(in, address));
		}
		in.end();
		return new RosterFrame(members, port);
	}
}
