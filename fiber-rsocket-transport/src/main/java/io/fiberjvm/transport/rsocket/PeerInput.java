package io.fiberjvm.transport.rsocket;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.rsocket.frame.FrameHeaderCodec;
import io.rsocket.frame.FrameType;

/**
 * What the peer of one server-side connection has sent, seen by the connection's own pipeline: the bytes as they
 * are read, and each whole frame as it is cut from them. The pipeline sees both before it sees the connection
 * close, so once the connection has closed this says whether the peer spoke RSocket, sent something else, or
 * sent nothing at all, whatever RSocket had taken of it by then.
 */
final class PeerInput {

	/** The bytes of the length in front of each frame on a TCP connection, which the frame decoder leaves on. */
	private static final int FRAME_LENGTH_SIZE = 3;

	private volatile long bytes;
	private volatile long frames;
	private volatile boolean setupFirst;

	/** Bytes read from the peer, whole frames or not. */
	long bytes() {
		return bytes;
	}

	/** Whole frames read from the peer. */
	long frames() {
		return frames;
	}

	/** Whether the peer's first whole frame was a setup frame: it speaks RSocket, whatever its setup said. */
	boolean setupFirst() {
		return setupFirst;
	}

	/** A handler for the head of the pipeline, where it sees each read's bytes. */
	ChannelHandler bytesIn() {
		return new ChannelInboundHandlerAdapter() {
			@Override
			public void channelRead(ChannelHandlerContext ctx, Object msg) {
				if (msg instanceof ByteBuf read) {
					bytes += read.readableBytes();
				}
				ctx.fireChannelRead(msg);
			}
		};
	}

	/**
	 * Whether {@code read} is a whole frame, its length in front of it, as the frame decoder cuts them; as the decoder
	 * is removed when the connection closes, it hands on the bytes of a frame cut short, which are not one.
	 */
	private static boolean whole(ByteBuf read) {
		return read.readableBytes() >= FRAME_LENGTH_SIZE && read.getUnsignedMedium(read.readerIndex()) == read.readableBytes() - FRAME_LENGTH_SIZE;
	}

	/** A handler for behind the frame decoder, where it sees each whole frame. */
	ChannelHandler framesIn() {
		return new ChannelInboundHandlerAdapter() {
			@Override
			public void channelRead(ChannelHandlerContext ctx, Object msg) {
				if (msg instanceof ByteBuf frame && whole(frame) && frames++ == 0) {
					setupFirst = frame.readableBytes() >= FRAME_LENGTH_SIZE + FrameHeaderCodec.size()
							&& FrameHeaderCodec.frameType(frame.slice(frame.readerIndex() + FRAME_LENGTH_SIZE,
									frame.readableBytes() - FRAME_LENGTH_SIZE)) == FrameType.SETUP;
				}
				ctx.fireChannelRead(msg);
			}
		};
	}
}
