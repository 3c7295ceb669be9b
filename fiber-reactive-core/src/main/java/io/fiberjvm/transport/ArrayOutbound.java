package io.fiberjvm.transport;

import java.nio.ByteBuffer;

/**
 * An {@link Outbound} that is an array already: written from it, or sent as it is; {@code whenReleased} runs when the
 * transport lets it go.
 */
record ArrayOutbound(byte[] data, Runnable whenReleased) implements Outbound {

	@Override
	public int size() {
		return data.length;
	}

	@Override
	public void writeTo(ByteBuffer target) {
		target.put(data);
	}

	@Override
	public byte[] toArray() {
		return data;
	}

	@Override
	public void released() {
		whenReleased.run();
	}
}
