package io.fiberjvm.k8s.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Streamed UTF-8 output (a pod's log) onto the command's writer, flushed as it comes; a character split between chunks is kept whole. */
final class WriterSink extends OutputStream {

	private final PrintWriter out;
	private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
			.onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
	private byte[] pending = new byte[0];

	WriterSink(PrintWriter out) {
		this.out = out;
	}

	@Override
	public void write(int b) {
		write(new byte[] {(byte) b}, 0, 1);
	}

	@Override
	public synchronized void write(byte[] b, int off, int len) {
		ByteBuffer in = ByteBuffer.allocate(pending.length + len).put(pending).put(b, off, len).flip();
		CharBuffer chars = CharBuffer.allocate(in.remaining() + 1);
		decoder.decode(in, chars, false);
		out.write(chars.flip().toString());
		out.flush();
		pending = new byte[in.remaining()];
		in.get(pending);
	}
}
