package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.function.IntUnaryOperator;

import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;

/** A frame handed to a reader as a transport hands it: in read-only runs, here of the sizes a function yields. */
final class InRuns {

	private InRuns() {
	}

	/** What {@code reader} makes of {@code frame} given in runs of the sizes {@code cuts} yields for each run. */
	static <T> T read(InboundReader<T> reader, byte[] frame, IntUnaryOperator cuts) {
		InboundAssembly<T> assembly = reader.begin(frame.length);
		int at = 0;
		for (int run = 0; at < frame.length; run++) {
			int length = Math.min(frame.length - at, Math.max(1, cuts.applyAsInt(run)));
			assembly.take(ByteBuffer.wrap(frame, at, length).slice().asReadOnlyBuffer());
			at += length;
		}
		return assembly.end();
	}
}
