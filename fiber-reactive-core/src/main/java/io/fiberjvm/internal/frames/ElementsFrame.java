package io.fiberjvm.internal.frames;

import java.util.ArrayList;
import java.util.List;

/**
 * Elements of a manager call's sequence, in the order the object made them: the call's id, a count, then each
 * element's bytes (a sequence has no null elements).
 *
 * @param call the call's id
 * @param elements each element's bytes
 */
public record ElementsFrame(long call, List<byte[]> elements) {

	public byte[] encode() {
		// A count, then each element length-prefixed: the layout of a list of texts.
		return FrameWriter.of(FrameKind.ELEMENTS, 0, 8 + FrameWriter.sizeOf(elements)).putLong(call).putTexts(elements).array();
	}

	public static ElementsFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ELEMENTS);
		long call = in.readLong();
		int n = in.count("elements", 4);
		List<byte[]> elements = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			byte[] element = in.readBytes();
			if (element == null) {
				throw in.malformed("a null element");
			}
			elements.add(element);
		}
		in.end();
		return new ElementsFrame(call, elements);
	}
}
