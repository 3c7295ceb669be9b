package io.fiberjvm.internal.frames;

import java.util.List;

/**
 * A job-backed process's target on its way to the child: the serialized target and the allow-list patterns
 * (its own package) the child may read it with.
 *
 * @param allow patterns naming one package or class each
 * @param target the Java-serialized target
 */
public record TargetFrame(List<String> allow, byte[] target) {

	public TargetFrame {
		allow = List.copyOf(allow);
	}

	public byte[] encode() {
		List<byte[]> patterns = FrameWriter.utf8(allow);
		return FrameWriter.of(FrameKind.TARGET, 0, FrameWriter.sizeOf(patterns) + FrameWriter.sizeOf(target))
				.putTexts(patterns)
				.putBytes(target)
				.array();
	}

	/** Whether {@code frame} is a target frame (and not, say, the empty frame that answers a finished child). */
	public static boolean isTarget(byte[] frame) {
		return frame.length > 0 && frame[0] == FrameKind.TARGET.code();
	}

	public static TargetFrame decode(byte[] frame) {
		FrameReader in = FrameReader.open(frame, FrameKind.TARGET);
		List<String> allow = in.readTexts("patterns");
		byte[] target = in.readBytes();
		if (target == null) {
			throw in.malformed("no target");
		}
		in.end();
		return new TargetFrame(allow, target);
	}
}
