package io.fiberjvm.internal.frames;

import org.jspecify.annotations.Nullable;

/**
 * How a job-backed process's target ended, as the child reports it before it exits.
 *
 * @param error the target's exception as {@link io.fiberjvm.RemoteException#encode} wrote it; null when it returned
 */
public record OutcomeFrame(@Nullable String error) {

	public byte[] encode() {
		byte[] text = FrameWriter.utf8(error);
		return FrameWriter.of(FrameKind.OUTCOME, 0, FrameWriter.sizeOf(text)).putBytes(text).array();
	}

	public static OutcomeFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.OUTCOME);
		String error = in.readText();
		in.end();
		return new OutcomeFrame(error);
	}
}
