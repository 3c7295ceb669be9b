package io.fiberjvm.transport.rsocket;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;

/**
 * Copies an outbound frame that has a part on the heap into pooled direct pieces of 64 KiB, part by part, before
 * the socket channel sees it. Left to itself, the channel copies such a frame into one new direct buffer of its
 * size by way of a merged heap copy: a fragment of a large payload (960 KiB, the header direct and the data an
 * array) was zeroed and copied twice, into memory the pool does not keep at that size. The pieces are written
 * together with one gathering write and return to the pool once the frame is written.
 */
@ChannelHandler.Sharable
final class DirectWrites extends ChannelOutboundHandlerAdapter {

	static final DirectWrites INSTANCE = new DirectWrites();

	static final int PIECE = 64 * 1024;

	private DirectWrites() {
	}

	@Override
	public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) {
		if (message instanceof ByteBuf frame && needsCopy(frame)) {
			ByteBuf direct;
			try {
				direct = direct(context, frame);
			}
			catch (RuntimeException | Error e) {
				ReferenceCountUtil.safeRelease(frame);
				throw e;
			}
			// The last release of a large payload's data tells its stream it was written, which may send the next.
			ReferenceCountUtil.safeRelease(frame);
			context.write(direct, promise);
		}
		else {
			context.write(message, promise);
		}
	}

	private static boolean needsCopy(ByteBuf frame) {
		return !frame.isDirect() && !frame.hasMemoryAddress() && frame.readableBytes() > 0;
	}

	private static ByteBuf direct(ChannelHandlerContext context, ByteBuf frame) {
		int length = frame.readableBytes();
		int pieces = (length + PIECE - 1) / PIECE;
		CompositeByteBuf out = context.alloc().compositeDirectBuffer(pieces);
		try {
			for (int from = frame.readerIndex(), end = from + length; from < end; from += PIECE) {
				int size = Math.min(PIECE, end - from);
				ByteBuf piece = context.alloc().directBuffer(size, size);
				try {
					frame.getBytes(from, piece, 0, size);
				}
				catch (RuntimeException | Error e) {
					piece.release();
					throw e;
				}
				out.addComponent(true, piece.writerIndex(size));
			}
			return out;
		}
		catch (RuntimeException | Error e) {
			out.release();
			throw e;
		}
	}
}
