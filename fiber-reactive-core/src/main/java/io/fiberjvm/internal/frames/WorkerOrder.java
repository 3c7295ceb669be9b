package io.fiberjvm.internal.frames;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.transport.InboundReader;

/** What a pool sends its worker: a chunk of tasks to run, or tasks to cancel. */
public sealed interface WorkerOrder permits ChunkFrame, CancelFrame {

	/** Reads a pool's orders where the transport received them: chunks as {@link ChunkFrame#reader} reads them. */
	static InboundReader<WorkerOrder> reader(ShippedValues values) {
		return new SoleValueReader<WorkerOrder>(values, ChunkFrame.PREFIX,
				first -> first.get(0) == FrameKind.CHUNK.code() ? first.getInt(FrameHeaderCodec.SIZE) : -1,
				(head, valueBytes) -> {
					var chunk = ChunkFrame.sole(head, valueBytes);
					return chunk == null ? null : chunk::apply;
				},
				frame -> frame.length > 0 && frame[0] == FrameKind.CANCEL.code() ? CancelFrame.decode(frame) : ChunkFrame.decode(frame));
	}
}
