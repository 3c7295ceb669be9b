package io.fiberjvm.internal.frames;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Elements of a manager call's sequence, in the order the object made them: the call's id, a count, then each
 * element's bytes (a sequence has no null elements).
 *
 * @param call the call's id
 * @param elements each element's bytes; read from a frame, each is a view of it, not a copy
 */
public record ElementsFrame(long call, List<ByteBuffer> elements) {

	/** Elements as a sender encoded them. */
	public static ElementsFrame of(long call, List<byte[]> elements) {
		return new ElementsFrame(call, elements.stream().map(ByteBuffer::wrap).toList());
	}

	public byte[] encode() {
		return FrameWriter.of(FrameKind.ELEMENTS, 0, 8 + FrameWriter.sizeOfAll(elements)).putLong(call).putAll(elements).array();
	}

	public static ElementsFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.ELEMENTS);
		long call = in.readLong();
		int n = in.count("elements", 4);
		List<ByteBuffer> elements = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			ByteBuffer element = in.readSlice();
			if (element == null) {
				throw in.malformed("a null element");
			}
			elements.add(element);
		}
		in.end();
		return new ElementsFrame(call, elements);
	}
}
