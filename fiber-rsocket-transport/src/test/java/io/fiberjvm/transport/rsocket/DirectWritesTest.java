package io.fiberjvm.transport.rsocket;

import java.util.Random;

import org.junit.jupiter.api.Test;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;

import static org.assertj.core.api.Assertions.assertThat;

class DirectWritesTest {

	private static byte[] bytes(int length) {
		byte[] bytes = new byte[length];
		new Random(length).nextBytes(bytes);
		return bytes;
	}

	@Test
	void aFrameWithAHeapPartLeavesAsDirectPiecesWithTheSameBytesAndIsReleased() {
		EmbeddedChannel channel = new EmbeddedChannel(DirectWrites.INSTANCE);
		byte[] header = bytes(9);
		byte[] data = bytes(DirectWrites.PIECE * 3 + 17);
		CompositeByteBuf frame = Unpooled.compositeBuffer()
				.addComponent(true, Unpooled.directBuffer(header.length).writeBytes(header))
				.addComponent(true, Unpooled.wrappedBuffer(data));
		channel.writeOutbound(frame);
		ByteBuf written = channel.readOutbound();
		try {
			assertThat(frame.refCnt()).isZero();
			assertThat(written.isDirect()).isTrue();
			assertThat(written.nioBufferCount()).isEqualTo(4);
			byte[] expected = new byte[header.length + data.length];
			System.arraycopy(header, 0, expected, 0, header.length);
			System.arraycopy(data, 0, expected, header.length, data.length);
			assertThat(ByteBufUtil.getBytes(written)).isEqualTo(expected);
		}
		finally {
			written.release();
			channel.finishAndReleaseAll();
		}
	}

	@Test
	void aDirectFrameAndAnEmptyOneGoAsTheyAre() {
		EmbeddedChannel channel = new EmbeddedChannel(DirectWrites.INSTANCE);
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
