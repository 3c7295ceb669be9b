package io.fiberjvm.transport.rsocket;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;

import static org.assertj.core.api.Assertions.assertThat;

class DirectWritesTest {

	private static byte[] bytes(int length) {
		byte[] bytes = new byte[length];
		new Random(length).nextBytes(bytes);
		return bytes;
	}

	private static CompositeByteBuf frame(byte[] header, byte[] data) {
		return Unpooled.compositeBuffer()
				.addComponent(true, Unpooled.directBuffer(header.length).writeBytes(header))
				.addComponent(true, Unpooled.wrappedBuffer(data));
	}

	/** A channel that stops taking more once a piece is queued: it is over the high water mark with two. */
	private static EmbeddedChannel paced() {
		EmbeddedChannel channel = new EmbeddedChannel(new DirectWrites());
		channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(DirectWrites.PIECE / 2, DirectWrites.PIECE));
		return channel;
	}

	private static byte[] concat(byte[]... parts) {
		ByteBuf all = Unpooled.wrappedBuffer(parts);
		try {
			return ByteBufUtil.getBytes(all);
		}
		finally {
			all.release();
		}
	}

	/** Every message written out so far, in order. */
	private static List<ByteBuf> written(EmbeddedChannel channel) {
		List<ByteBuf> out = new ArrayList<>();
		for (ByteBuf next; (next = channel.readOutbound()) != null; ) {
			out.add(next);
		}
		return out;
	}

	private static byte[] joined(List<ByteBuf> pieces) {
		ByteBuf all = Unpooled.wrappedBuffer(pieces.stream().map(ByteBuf::retainedDuplicate).toArray(ByteBuf[]::new));
		try {
			return ByteBufUtil.getBytes(all);
		}
		finally {
			all.release();
		}
	}

	@Test
	void aFrameWithAHeapPartLeavesAsDirectPiecesWithTheSameBytesAndIsReleased() {
		EmbeddedChannel channel = new EmbeddedChannel(new DirectWrites());
		byte[] header = bytes(9);
		byte[] data = bytes(DirectWrites.PIECE * 3 + 17);
		CompositeByteBuf frame = frame(header, data);
		channel.writeOutbound(frame);
		List<ByteBuf> pieces = written(channel);
		try {
			assertThat(frame.refCnt()).isZero();
			assertThat(pieces).hasSize(4).allSatisfy(piece -> assertThat(piece.isDirect()).isTrue());
			assertThat(joined(pieces)).isEqualTo(concat(header, data));
		}
		finally {
			pieces.forEach(ByteBuf::release);
			channel.finishAndReleaseAll();
		}
	}

	@Test
	void piecesAreMadeOnlyWhileTheChannelTakesMoreAndWhatFollowsWaitsItsTurn() {
		EmbeddedChannel channel = paced();
		byte[] data = bytes(DirectWrites.PIECE * 8);
		CompositeByteBuf frame = frame(new byte[] {1}, data);
		ByteBuf behind = Unpooled.directBuffer(3).writeBytes(new byte[] {7, 8, 9});
		ChannelFuture frameWritten = channel.write(frame);
		ChannelFuture behindWritten = channel.write(behind);

		assertThat(channel.isWritable()).as("two pieces are over the high water mark").isFalse();
		assertThat(frame.refCnt()).as("the frame is still being copied").isOne();
		assertThat(behindWritten.isDone()).isFalse();

		channel.flush();
		List<ByteBuf> out = written(channel);
		try {
			assertThat(frame.refCnt()).isZero();
			assertThat(frameWritten.isSuccess()).isTrue();
			assertThat(behindWritten.isSuccess()).isTrue();
			assertThat(out).hasSize(10).last().isSameAs(behind);
			assertThat(joined(out.subList(0, 9))).isEqualTo(concat(new byte[] {1}, data));
		}
		finally {
			out.forEach(ByteBuf::release);
			channel.finishAndReleaseAll();
		}
	}

	@Test
	void whatWaitsWhenTheChannelClosesIsReleasedAndItsWriteFails() {
		EmbeddedChannel channel = paced();
		CompositeByteBuf frame = frame(new byte[] {1}, bytes(DirectWrites.PIECE * 8));
		ByteBuf behind = Unpooled.directBuffer(3).writeBytes(new byte[] {7, 8, 9});
		ChannelFuture frameWritten = channel.write(frame);
		ChannelFuture behindWritten = channel.write(behind);

		channel.close();

		assertThat(frame.refCnt()).isZero();
		assertThat(behind.refCnt()).isZero();
		assertThat(frameWritten.cause()).isInstanceOf(ClosedChannelException.class);
		assertThat(behindWritten.cause()).isInstanceOf(ClosedChannelException.class);
		channel.finishAndReleaseAll();
	}

	@Test
	void aFrameWrittenWhenTheOneBeforeIsReleasedGoesOutAfterAllOfIt() {
		EmbeddedChannel channel = new EmbeddedChannel(new DirectWrites());
		byte[] first = bytes(DirectWrites.PIECE * 2 + 5);
		byte[] second = bytes(DirectWrites.PIECE + 7);
		// As a stream sends its next part once the transport lets go of the last one.
		ByteBuf firstFrame = new UnpooledHeapByteBuf(UnpooledByteBufAllocator.DEFAULT, first, first.length) {
			@Override
			protected void deallocate() {
				super.deallocate();
				channel.write(Unpooled.wrappedBuffer(second));
			}
		}.writerIndex(first.length);
		channel.writeAndFlush(firstFrame);
		channel.flush();
		List<ByteBuf> out = written(channel);
		try {
			assertThat(joined(out)).isEqualTo(concat(first, second));
		}
		finally {
			out.forEach(ByteBuf::release);
			channel.finishAndReleaseAll();
		}
	}

	/** An allocator whose direct buffers fail from the {@code failing}-th on. */
	private static ByteBufAllocator failingFrom(int failing) {
		AtomicInteger made = new AtomicInteger();
		return new AbstractByteBufAllocator(true) {
			@Override
			protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
				return UnpooledByteBufAllocator.DEFAULT.heapBuffer(initialCapacity, maxCapacity);
			}

			@Override
			protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
				if (made.incrementAndGet() >= failing) {
					throw new OutOfMemoryError("no direct memory left (test)");
				}
				return UnpooledByteBufAllocator.DEFAULT.directBuffer(initialCapacity, maxCapacity);
			}

			@Override
			public boolean isDirectBufferPooled() {
				return false;
			}
		};
	}

	@Test
	void aFrameThatCannotBeFinishedOncePartOfItWentOutClosesTheConnection() {
		EmbeddedChannel channel = new EmbeddedChannel(new DirectWrites());
		channel.config().setAllocator(failingFrom(3));
		CompositeByteBuf frame = frame(new byte[] {1}, bytes(DirectWrites.PIECE * 8));
		ChannelFuture written = channel.writeAndFlush(frame);

		assertThat(frame.refCnt()).isZero();
		assertThat(written.cause()).isInstanceOf(OutOfMemoryError.class);
		assertThat(channel.isOpen()).as("the peer would take what follows for the rest of the frame").isFalse();
		written(channel).forEach(ByteBuf::release);
		channel.finishAndReleaseAll();
	}

	@Test
	void aFrameThatCannotStartIsDroppedAloneAndWhatFollowsGoesOn() {
		EmbeddedChannel channel = new EmbeddedChannel(new DirectWrites());
		channel.config().setAllocator(failingFrom(1));
		CompositeByteBuf frame = frame(new byte[] {1}, bytes(DirectWrites.PIECE * 2));
		ByteBuf next = Unpooled.directBuffer(3).writeBytes(new byte[] {7, 8, 9});
		ChannelFuture frameWritten = channel.write(frame);
		ChannelFuture nextWritten = channel.writeAndFlush(next);

		assertThat(frame.refCnt()).isZero();
		assertThat(frameWritten.cause()).isInstanceOf(OutOfMemoryError.class);
		assertThat(nextWritten.isSuccess()).isTrue();
		assertThat(channel.isOpen()).isTrue();
		List<ByteBuf> out = written(channel);
		assertThat(out).containsExactly(next);
		out.forEach(ByteBuf::release);
		channel.finishAndReleaseAll();
	}

	@Test
	void aDirectFrameAndAnEmptyOneGoAsTheyAre() {
		EmbeddedChannel channel = new EmbeddedChannel(new DirectWrites());
		ByteBuf direct = Unpooled.directBuffer(100).writeBytes(bytes(100));
		ByteBuf empty = Unpooled.buffer(0);
		channel.writeOutbound(direct, empty);
		ByteBuf first = channel.readOutbound();
		ByteBuf second = channel.readOutbound();
		try {
			assertThat(first).isSameAs(direct);
			assertThat(second).isSameAs(empty);
		}
		finally {
			first.release();
			second.release();
			channel.finishAndReleaseAll();
		}
	}
}
