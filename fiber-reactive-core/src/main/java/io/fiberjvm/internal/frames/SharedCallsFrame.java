package io.fiberjvm.internal.frames;

/**
 * The calls a manager process has served on its shared objects, from any process of the run, as it reports
 * them to its parent: running totals.
 *
 * @param calls calls served
 * @param failed calls that failed
 * @param nanos their summed time from arrival to answer
 */
public record SharedCallsFrame(long calls, long failed, long nanos) {

	public byte[] encode() {
		return FrameWriter.of(FrameKind.SHARED_CALLS, 0, 24).putLong(calls).putLong(failed).putLong(nanos).array();
	}

	public static SharedCallsFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.SHARED_CALLS);
		SharedCallsFrame report = new SharedCallsFrame(in.readLong(), in.readLong(), in.readLong());
		in.end();
		return report;
	}
}
