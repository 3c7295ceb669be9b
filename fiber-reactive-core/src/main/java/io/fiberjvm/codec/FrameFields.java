package io.fiberjvm.codec;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The checked fields of Fiber's small binary frames (pool chunks, manager calls): length-prefixed byte
 * strings and counts that a malformed frame cannot make huge, and an end that must be the frame's end.
 */
public final class FrameFields {

	private FrameFields() {
	}

	/** Writes {@code value} with its length; null as length -1. */
	public static void writeBytes(DataOutputStream out, byte[] value) throws IOException {
		if (value == null) {
			out.writeInt(-1);
			return;
		}
		out.writeInt(value.length);
		out.write(value);
	}

	/** Reads what {@link #writeBytes} wrote, refusing a length the frame cannot hold. */
	public static byte[] readBytes(DataInputStream in, int frameLength) throws IOException {
		int length = in.readInt();
		if (length == -1) {
			return null;
		}
		if (length < 0 || length > frameLength) {
			throw new IOException("a length of " + length + " in a frame of " + frameLength + " bytes");
		}
		byte[] value = in.readNBytes(length);
		if (value.length != length) {
			throw new IOException("the frame ends inside a value of " + length + " bytes");
		}
		return value;
	}

	/** {@code n}, if a frame of {@code frameLength} bytes can hold that many {@code what}. */
	public static int count(int n, int frameLength, String what) throws IOException {
		if (n < 0 || n > frameLength) {
			throw new IOException("a count of " + n + " " + what + " in a frame of " + frameLength + " bytes");
		}
		return n;
	}

	public static void writeStrings(DataOutputStream out, List<String> values) throws IOException {
		out.writeInt(values.size());
		for (String value : values) {
			out.writeUTF(value);
		}
	}

	public static List<String> readStrings(DataInputStream in, int frameLength, String what) throws IOException {
		int n = count(in.readInt(), frameLength, what);
		List<String> values = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			values.add(in.readUTF());
		}
		return values;
	}

	/** Fails if anything follows the frame's last field. */
	public static void ensureConsumed(DataInputStream in, String what) throws IOException {
		if (in.read() != -1) {
			throw new IOException("bytes left over after the " + what);
		}
	}
}
