package io.fiberjvm.internal.frames;

/**
 * How many more elements of a call's sequence the caller wants, or that it wants none (a negative count: the
 * caller cancelled).
 *
 * @param call the call's id
 * @param count more elements wanted, or negative to cancel
 */
public record DemandFrame(long call, long count) {

	public byte[] encode() {
		return FrameWriter.of(FrameKind.DEMAND, 0, 16).putLong(call).putLong(count).array();
	}

	public static DemandFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.DEMAND);
		DemandFrame demand = new DemandFrame(in.readLong(), in.readLong());
		in.end();
		return demand;
	}
}
