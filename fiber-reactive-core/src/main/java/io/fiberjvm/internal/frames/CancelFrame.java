package io.fiberjvm.internal.frames;

import java.util.ArrayList;
import java.util.List;

/**
 * Tasks whose callers no longer wait for them, from a pool to the worker it sent them to: one not started yet is
 * skipped, and the one running is interrupted. Each is still answered, so the pool's account of what the worker
 * holds stays true.
 *
 * @param ids the task attempts' ids
 */
public record CancelFrame(List<Long> ids) implements WorkerOrder {

	public CancelFrame {
		ids = List.copyOf(ids);
	}

	public byte[] encode() {
		FrameWriter out = FrameWriter.of(FrameKind.CANCEL, 0, 4 + 8 * ids.size()).putInt(ids.size());
		for (long id : ids) {
			out.putLong(id);
		}
		return out.array();
	}

	public static CancelFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.CANCEL);
		int n = in.count("task ids", 8);
		List<Long> ids = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			ids.add(in.readLong());
		}
		in.end();
		return new CancelFrame(ids);
	}
}
