package io.fiberjvm.manager;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import io.fiberjvm.codec.CodecException;

import static io.fiberjvm.codec.FrameFields.count;
import static io.fiberjvm.codec.FrameFields.ensureConsumed;
import static io.fiberjvm.codec.FrameFields.readBytes;
import static io.fiberjvm.codec.FrameFields.readStrings;
import static io.fiberjvm.codec.FrameFields.writeBytes;
import static io.fiberjvm.codec.FrameFields.writeStrings;

/**
 * The frames of a manager session: calls going down to the manager (create an object, call a method)
 * and answers coming back. Argument and result bytes are {@link io.fiberjvm.codec.ShippedValues}.
 */
final class CallFrames {

	static final byte CREATE = 1;
	/** A call whose result is one value. */
	static final byte CALL = 2;
	/** A call whose result is a sequence (an Iterable, array or Stream), sent back as a list. */
	static final byte CALL_MANY = 3;

	private CallFrames() {
	}

	/**
	 * A call: for {@link #CREATE}, {@code name} is the implementation class; for {@link #CALL}, the
	 * method name and {@code parameterTypes} its parameter types. {@code allow} names the packages the
	 * manager may read the arguments from.
	 */
	record Call(byte kind, long id, long object, String name, List<String> parameterTypes, List<String> allow, List<byte[]> args) {
	}

	/** An answer: a value, or an encoded remote error when {@code failed}. */
	record Answer(long id, boolean failed, String allow, byte[] bytes) {
	}

	static byte[] encode(Call call) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
		try (DataOutputStream out = new DataOutputStream(bytes)) {
			out.writeByte(call.kind());
			out.writeLong(call.id());
			out.writeLong(call.object());
			out.writeUTF(call.name());
			writeStrings(out, call.parameterTypes());
			writeStrings(out, call.allow());
			out.writeInt(call.args().size());
			for (byte[] arg : call.args()) {
				writeBytes(out, arg);
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return bytes.toByteArray();
	}

	static Call decodeCall(byte[] frame) {
		try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(frame))) {
			byte kind = in.readByte();
			if (kind != CREATE && kind != CALL && kind != CALL_MANY) {
				throw new IOException("unknown call kind " + kind);
			}
			long id = in.readLong();
			long object = in.readLong();
			String name = in.readUTF();
			List<String> types = readStrings(in, frame.length, "parameter types");
			List<String> allow = readStrings(in, frame.length, "patterns");
			int n = count(in.readInt(), frame.length, "arguments");
			List<byte[]> args = new ArrayList<>(n);
			for (int i = 0; i < n; i++) {
				args.add(readBytes(in, frame.length));
			}
			ensureConsumed(in, "call");
			return new Call(kind, id, object, name, types, allow, args);
		}
		catch (IOException e) {
			throw new CodecException("malformed manager call of " + frame.length + " bytes: " + e.getMessage(), e);
		}
	}

	static byte[] encode(Answer answer) {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
		try (DataOutputStream out = new DataOutputStream(bytes)) {
			out.writeLong(answer.id());
			out.writeBoolean(answer.failed());
			out.writeUTF(answer.allow() == null ? "" : answer.allow());
			writeBytes(out, answer.bytes());
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		return bytes.toByteArray();
	}

	static Answer decodeAnswer(byte[] frame) {
		try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(frame))) {
			long id = in.readLong();
			boolean failed = in.readBoolean();
			String allow = in.readUTF();
			byte[] bytes = readBytes(in, frame.length);
			ensureConsumed(in, "answer");
			return new Answer(id, failed, allow.isEmpty() ? null : allow, bytes);
		}
		catch (IOException e) {
			throw new CodecException("malformed manager answer of " + frame.length + " bytes: " + e.getMessage(), e);
		}
	}
}
