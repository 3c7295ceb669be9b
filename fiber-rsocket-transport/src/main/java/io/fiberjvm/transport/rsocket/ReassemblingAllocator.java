package io.fiberjvm.transport.rsocket;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Netty's default allocator, except that a composite buffer made without a component limit takes any number of
 * components. RSocket reassembles a fragmented payload into such a composite; with Netty's default limit of 16
 * it consolidates the parts again and again as fragments arrive, which copies a large payload many times over.
 */
final class ReassemblingAllocator extends AbstractByteBufAllocator {

	static final ReassemblingAllocator INSTANCE = new ReassemblingAllocator(ByteBufAllocator.DEFAULT);

	private final ByteBufAllocator delegate;

	private ReassemblingAllocator(ByteBufAllocator delegate) {
		super(delegate.isDirectBufferPooled());
		this.delegate = delegate;
	}

	@Override
	protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
		return delegate.heapBuffer(initialCapacity, maxCapacity);
	}

	@Override
	protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
		return delegate.directBuffer(initialCapacity, maxCapacity);
	}

	@Override
	public CompositeByteBuf compositeBuffer() {
		return compositeBuffer(Integer.MAX_VALUE);
	}

	@Override
	public CompositeByteBuf compositeHeapBuffer() {
		return compositeHeapBuffer(Integer.MAX_VALUE);
	}

	@Override
	public CompositeByteBuf compositeDirectBuffer() {
		return compositeDirectBuffer(Integer.MAX_VALUE);
	}

	@Override
	public boolean isDirectBufferPooled() {
		return delegate.isDirectBufferPooled();
	}
}
