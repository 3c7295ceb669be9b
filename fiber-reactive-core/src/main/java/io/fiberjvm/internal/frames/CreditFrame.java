package io.fiberjvm.internal.frames;

/**
 * A queue consumer's control: how many more items it wants, how many of those handed to it it has
 * acknowledged since its last control, and how many bytes of items it will hold unacknowledged.
 *
 * @param credit more items wanted
 * @param acknowledged items acknowledged since the last control, in handed-out order
 * @param heldBytes the bytes of items beyond the first it may hold unacknowledged ({@code Long.MAX_VALUE}: as
 *     many as its credit allows)
 */
public record CreditFrame(long credit, long acknowledged, long heldBytes) {

	public byte[] encode() {
		return FrameWriter.of(FrameKind.CREDIT, 0, 24).putLong(credit).putLong(acknowledged).putLong(heldBytes).array();
	}

	public static CreditFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.CREDIT);
		CreditFrame control = new CreditFrame(in.readLong(), in.readLong(), in.readLong());
		in.end();
		if (control.credit < 0 || control.acknowledged < 0 || control.heldBytes < 0) {
			throw in.malformed("a credit of " + control.credit + ", " + control.acknowledged + " acknowledged and "
					+ control.heldBytes + " bytes to hold");
		}
		return control;
	}
}
