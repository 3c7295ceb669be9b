package io.fiberjvm.ring;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.transport.Endpoint;

/**
 * The ring's wire forms: a data segment between members (collective, step, sender, offset and total
 * length, then the bytes), and the join exchange with the parent (a member's rank and addresses; the
 * roster of every member's address in rank order and rank 0's framework port).
 */
final class RingFrames {

	static final int HEADER = 20;

	private RingFrames() {
	}

	/** A frame with the header written and room for {@code length} bytes after it, positioned there. */
	static ByteBuffer frame(int seq, int step, int from, int offset, int total, int length) {
		ByteBuffer frame = ByteBuffer.allocate(HEADER + length);
		frame.putInt(seq).putInt(step).putInt(from).putInt(offset).putInt(total);
		return frame;
	}

	static byte[] segment(int seq, int step, int from, int offset, int total, byte[] data, int dataOffset, int length) {
		ByteBuffer frame = ByteBuffer.allocate(HEADER + length);
		frame.putInt(seq).putInt(step).putInt(from).putInt(offset).putInt(total).put(data, dataOffset, length);
		return frame.array();
	}

	/** Hands a segment to {@code mailbox}; a frame that does not parse is a {@link CodecException}. */
	static void deliver(byte[] frame, Mailbox mailbox, int size) {
		if (frame.length < HEADER) {
			throw new CodecException("a ring message of " + frame.length + " bytes is shorter than its " + HEADER + "-byte header");
		}
		ByteBuffer in = ByteBuffer.wrap(frame);
		int seq = in.getInt();
		int step = in.getInt();
		int from = in.getInt();
		int offset = in.getInt();
		int total = in.getInt();
		if (from < 0 || from >= size || seq < 0 || step < 0 || total < 0) {
			throw new CodecException("a ring message names collective " + seq + ", step " + step + ", rank " + from
					+ " and " + total + " bytes, which a ring of " + size + " cannot have");
		}
		mailbox.deliver(seq, step, from, offset, total, frame, HEADER, frame.length - HEADER);
	}

	/** A member's join: its rank, where it listens, and (rank 0) the port found free for a framework. */
	record Join(int rank, Endpoint address, int frameworkPort) {
		byte[] encode() {
			return (rank + "\n" + address + "\n" + frameworkPort).getBytes(StandardCharsets.UTF_8);
		}

		static Join decode(byte[] bytes) {
			String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
			try {
				return new Join(Integer.parseInt(lines[0]), Endpoint.parse(lines[1]), Integer.parseInt(lines[2]));
			}
			catch (RuntimeException e) {
				throw new CodecException("a ring join is malformed: " + e.getMessage(), e);
			}
		}
	}

	/** Every member's address in rank order, and rank 0's framework port. */
	record Roster(List<Endpoint> members, int frameworkPort) {
		byte[] encode() {
			StringBuilder text = new StringBuilder().append(frameworkPort);
			members.forEach(member -> text.append('\n').append(member));
			return text.toString().getBytes(StandardCharsets.UTF_8);
		}

		static Roster decode(byte[] bytes) {
			String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
			try {
				List<Endpoint> members = new ArrayList<>();
				for (int i = 1; i < lines.length; i++) {
					members.add(Endpoint.parse(lines[i]));
				}
				return new Roster(List.copyOf(members), Integer.parseInt(lines[0]));
			}
			catch (RuntimeException e) {
				throw new CodecException("a ring roster is malformed: " + e.getMessage(), e);
			}
		}
	}
}
