package io.fiberjvm.transport.rsocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.frame.RequestResponseFrameCodec;
import io.rsocket.frame.SetupFrameCodec;
import io.rsocket.util.DefaultPayload;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SetupCheckTest {

	private static ByteBuf setup() {
		return SetupFrameCodec.encode(ByteBufAllocator.DEFAULT, false, 20_000, 90_000, "application/binary", "application/binary",
				DefaultPayload.create("data", "metadata"));
	}

	@Test
	void aSetupRSocketWritesIsReadableAndLeftAsItWas() {
		ByteBuf frame = setup();
		try {
			int index = frame.readerIndex();
			assertThat(SetupCheck.unreadable(frame)).isNull();
			assertThat(frame.readerIndex()).isEqualTo(index);
		}
		finally {
			frame.release();
		}
	}

	@Test
	void aSetupCutInsideItsMimeTypesIsUnreadable() {
		ByteBuf frame = setup();
		try {
			// Header, version, keep-alive interval and lifetime, the first MIME type's length, and 3 of its bytes.
			ByteBuf cut = frame.slice(0, 6 + 4 + 4 + 4 + 1 + 3);
			assertThat(SetupCheck.unreadable(cut)).isNotNull();
		}
		finally {
			frame.release();
		}
	}

	@Test
	void otherFramesAreNotASetupCheckMatter() {
		ByteBuf frame = RequestResponseFrameCodec.encode(ByteBufAllocator.DEFAULT, 1, false, null,
				io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {1}));
		try {
			assertThat(SetupCheck.unreadable(frame)).isNull();
			assertThat(SetupCheck.unreadable(io.netty.buffer.Unpooled.wrappedBuffer(new byte[] {0, 0}))).isNull();
		}
		finally {
			frame.release();
		}
	}
}
