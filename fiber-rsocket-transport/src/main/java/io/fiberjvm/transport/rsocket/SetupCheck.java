package io.fiberjvm.transport.rsocket;

import io.netty.buffer.ByteBuf;
import io.rsocket.frame.FrameHeaderCodec;
import io.rsocket.frame.FrameType;
import io.rsocket.frame.SetupFrameCodec;
import org.jspecify.annotations.Nullable;

/**
 * Whether RSocket can read a connection's first frame when it is a setup frame: RSocket drops one whose fields run
 * past its end without refusing it, so the server checks it first, reading what RSocket reads.
 */
final class SetupCheck {

	private SetupCheck() {
	}

	/**
	 * Why RSocket cannot read {@code frame} (a frame without its length prefix), or null when it can or the frame
	 * is not a setup frame of a version RSocket supports (RSocket refuses those itself, saying why). The frame's
	 * indices are left as they were.
	 */
	static @Nullable String unreadable(ByteBuf frame) {
		ByteBuf view = frame.duplicate();
		try {
			if (view.readableBytes() < FrameHeaderCodec.size() || FrameHeaderCodec.frameType(view) != FrameType.SETUP
					|| !SetupFrameCodec.isSupportedVersion(view)) {
				return null;
			}
			SetupFrameCodec.keepAliveInterval(view);
			SetupFrameCodec.keepAliveMaxLifetime(view);
			if (SetupFrameCodec.resumeEnabled(view)) {
				SetupFrameCodec.resumeToken(view);
			}
			SetupFrameCodec.metadataMimeType(view);
			SetupFrameCodec.dataMimeType(view);
			if (FrameHeaderCodec.hasMetadata(view)) {
				SetupFrameCodec.metadata(view);
			}
			SetupFrameCodec.data(view);
			return null;
		}
		catch (RuntimeException e) {
			return e.getClass().getSimpleName() + ": " + e.getMessage();
		}
	}
}
