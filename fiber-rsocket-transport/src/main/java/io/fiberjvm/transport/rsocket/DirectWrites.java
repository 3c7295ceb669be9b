package io.fiberjvm.transport.rsocket;

import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;

/**
 * Copies an outbound frame that has a part on the heap into pooled direct pieces of 64 KiB as the socket takes them,
 * before the socket channel sees it. Left to itself, the channel copies such a frame into one new direct buffer of its
 * size by way of a merged heap copy. Here a piece is made only while the channel is writable, so a large frame holds
 * a few pieces at a time, which the pool hands out again still warm, where copying all of it at once took that much
 * memory new from the system (zeroed, and faulted in page by page) for every large value. Whatever is written behind
 * such a frame waits its turn, in order; anything else passes straight through. The frame is released once its last
 * piece is handed on to the channel, which tells its stream it was written and may send the next; its write
 * succeeds once every piece is written. A frame that cannot be finished once part of it went out closes the
 * connection, since the peer would read whatever follows as the rest of it.
 *
 * <p>One per connection; used on its event loop only.
 */
final class DirectWrites extends ChannelDuplexHandler {

	static final int PIECE = 64 * 1024;

	/** Messages waiting behind the frame being copied, in the order they were written. */
	private final ArrayDeque<Pending> waiting = new ArrayDeque<>();
	/** The frame being copied, and how many of its bytes are. */
	private @Nullable Pending current;
	private int copied;

	private record Pending(Object message, ChannelPromise promise) {
	}

	@Override
	public void write(ChannelHandlerContext context, Object message, ChannelPromise promise) {
		if (current == null && waiting.isEmpty() && !needsCopy(message)) {
			context.write(message, promise);
			return;
		}
		waiting.add(new Pending(message, promise));
		drain(context);
	}

	@Override
	public void channelWritabilityChanged(ChannelHandlerContext context) {
		if (context.channel().isWritable() && drain(context)) {
			context.flush();
		}
		context.fireChannelWritabilityChanged();
	}

	@Override
	public void channelInactive(ChannelHandlerContext context) {
		discard(new ClosedChannelException());
		context.fireChannelInactive();
	}

	/** What has not started goes on as it is, in order; a frame cut off in the middle would leave the stream out of step. */
	@Override
	public void handlerRemoved(ChannelHandlerContext context) {
		Pending frame = current;
		if (frame != null) {
			broken(context, frame, new ClosedChannelException());
		}
		for (Pending next; (next = waiting.poll()) != null; ) {
			context.write(next.message(), next.promise());
		}
		context.flush();
	}

	/** Writes what waits, a piece at a time for a frame being copied, while the channel takes more; whether it wrote. */
	private boolean drain(ChannelHandlerContext context) {
		if (!context.channel().isActive()) {
			discard(new ClosedChannelException());
			return false;
		}
		boolean wrote = false;
		while (context.channel().isWritable()) {
			Pending frame = current;
			if (frame == null) {
				Pending next = waiting.poll();
				if (next == null) {
					break;
				}
				if (!needsCopy(next.message())) {
					context.write(next.message(), next.promise());
					wrote = true;
					continue;
				}
				current = frame = next;
				copied = 0;
			}
			writePiece(context, frame);
			wrote = true;
		}
		return wrote;
	}

	private void writePiece(ChannelHandlerContext context, Pending pending) {
		ByteBuf frame = (ByteBuf) pending.message();
		int length = frame.readableBytes();
		int size = Math.min(PIECE, length - copied);
		ByteBuf piece;
		try {
			piece = context.alloc().directBuffer(size, size);
			try {
				frame.getBytes(frame.readerIndex() + copied, piece, 0, size);
				piece.writerIndex(size);
			}
			catch (RuntimeException | Error e) {
				piece.release();
				throw e;
			}
		}
		catch (RuntimeException | Error e) {
			if (copied == 0) {
				// Nothing of it went out: the stream stays in step without it.
				current = null;
				ReferenceCountUtil.safeRelease(frame);
				pending.promise().tryFailure(e);
			}
			else {
				broken(context, pending, e);
			}
			return;
		}
		copied += size;
		boolean last = copied == length;
		if (last) {
			current = null;
		}
		context.write(piece).addListener((ChannelFutureListener) written -> {
			if (!written.isSuccess()) {
				pending.promise().tryFailure(written.cause());
				written.channel().close();
			}
			else if (last) {
				pending.promise().trySuccess();
			}
		});
		if (last) {
			// After its last piece: the release may send the stream's next frame at once, which must follow it.
			ReferenceCountUtil.safeRelease(frame);
		}
	}

	/**
	 * A frame part of which is out cannot be finished: the peer would read what follows as the rest of it, so the
	 * connection closes, and the frame's write fails with {@code cause}.
	 */
	private void broken(ChannelHandlerContext context, Pending pending, Throwable cause) {
		current = null;
		// Closed first: the release may send the stream's next frame at once, which must not follow the cut one out.
		context.close();
		ReferenceCountUtil.safeRelease(pending.message());
		pending.promise().tryFailure(cause);
	}

	private void discard(Throwable cause) {
		Pending frame = current;
		current = null;
		if (frame != null) {
			ReferenceCountUtil.safeRelease(frame.message());
			frame.promise().tryFailure(cause);
		}
		for (Pending next; (next = waiting.poll()) != null; ) {
			ReferenceCountUtil.safeRelease(next.message());
			next.promise().tryFailure(cause);
		}
	}

	private static boolean needsCopy(Object message) {
		return message instanceof ByteBuf frame && !frame.isDirect() && !frame.hasMemoryAddress() && frame.readableBytes() > 0;
	}
}
