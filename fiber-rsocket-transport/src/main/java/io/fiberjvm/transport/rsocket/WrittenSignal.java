package io.fiberjvm.transport.rsocket;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;

/**
 * An array as a buffer that says when the transport is done with it: the last release, once every frame cut
 * from it is written (or dropped with its stream), runs {@code done}. A stream counts its large payloads'
 * bytes out with it and waits while too many are queued unwritten.
 */
final class WrittenSignal extends UnpooledHeapByteBuf {

	private final Runnable done;

	WrittenSignal(byte[] data, Runnable done) {
		super(UnpooledByteBufAllocator.DEFAULT, data, data.length);
		this.done = done;
	}

	@Override
	protected void deallocate() {
		super.deallocate();
		done.run();
	}
}
