package io.fiberjvm.internal.frames;

/**
 * A queue consumer's control: how many more items it wants, and how many of those handed to it it has
 * acknowledged since its last control.
 *
 * @param credit more items wanted
 * @param acknowledged items acknowledged since the last control, in handed-out order
 */
public record CreditFrame(long credit, long acknowledged) {

	public byte[] encode() {
		return FrameWriter.of(FrameKind.CREDIT, 0, 16).putLong(credit).putLong(acknowledged).array();
	}

	public static CreditFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.CREDIT);
		CreditFrame control = new CreditFrame(in.readLong(), in.readLong());
		in.end();
		if (control.credit < 0 || control.acknowledged < 0) {
			throw in.malformed("a credit of " + control.credit + " and " + control.acknowledged + " acknowledged");
		}
		return control;
	}
}
