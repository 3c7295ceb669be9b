package io.fiberjvm.transport.rsocket;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.DuplexConnection;
import io.rsocket.RSocketErrorException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A server-side raw connection that reports, once, why it was refused or cut off for what its peer sent: a setup
 * refused, bytes that are not RSocket frames (a first frame that is not a setup frame, a frame cut short by the
 * close, a frame over the limit, a malformed one, a setup frame whose fields run past its end), or no whole frame
 * within the first-frame timeout; and counts the
 * bytes of the frames it reads and writes. A connection whose first frame was a setup that was accepted is not
 * reported when it closes, nor is one that closes having sent nothing.
 */
final class WatchedConnection implements DuplexConnection {

	private final DuplexConnection delegate;
	private final PeerInput input;
	private final ServerCounters counters;
	private final BiConsumer<String, String> report;
	private final AtomicBoolean reported = new AtomicBoolean();
	private final Duration firstFrameTimeout;
	private final long opened = System.nanoTime();
	/** Whether the first frame was read; only the connection's reading thread touches it. */
	private boolean firstRead;

	WatchedConnection(DuplexConnection delegate, PeerInput input, Duration firstFrameTimeout, ServerCounters counters,
			BiConsumer<String, String> report) {
		this.delegate = delegate;
		this.input = input;
		this.firstFrameTimeout = firstFrameTimeout;
		this.counters = counters;
		this.report = report;
		delegate.onClose().doFinally(signal -> closed()).subscribe(done -> { }, error -> { });
	}

	/**
	 * The connection closed: a peer that sent bytes but never a setup frame first is reported, and so is one that
	 * sent nothing for as long as the first-frame timeout, after which RSocket closes it.
	 */
	private void closed() {
		if (input.setupFirst()) {
			return;
		}
		if (input.frames() > 0) {
			report("its first frame is not a setup frame (not an RSocket peer?)");
		}
		else if (input.bytes() > 0) {
			report("it sent " + input.bytes() + " bytes and no whole frame (a frame cut short, or not an RSocket peer)");
		}
		else if (System.nanoTime() - opened >= firstFrameTimeout.toNanos()) {
			report("it sent nothing within " + firstFrameTimeout + " (not an RSocket peer?)");
		}
	}

	private void report(String reason) {
		if (reported.compareAndSet(false, true)) {
			counters.rejected.increment();
			report.accept(String.valueOf(delegate.remoteAddress()), reason);
		}
	}

	@Override
	public Flux<ByteBuf> receive() {
		return delegate.receive()
				.doOnNext(frame -> {
					counters.bytesReceived.add(frame.readableBytes());
					if (!firstRead) {
						firstRead = true;
						String unreadable = SetupCheck.unreadable(frame);
						if (unreadable != null) {
							report("a setup frame RSocket cannot read (" + unreadable + ")");
							// RSocket drops such a setup without a word; the peer must learn it was cut off.
							delegate.dispose();
						}
					}
				})
				// A reset or broken pipe is a peer going away, not bad input: it goes on to RSocket as it is.
				.onErrorResume(error -> !(error instanceof java.io.IOException), error -> {
					report("malformed input: " + describe(error));
					// RSocket stops reading but may leave the socket open; the peer must learn it was cut off.
					delegate.dispose();
					// Said once above: RSocket's readers of a refused connection, some with no error handler, see it end
					// rather than log the peer's bytes as an error of this process.
					return Flux.empty();
				});
	}

	private static String describe(Throwable error) {
		String name = error.getClass().getSimpleName();
		if (name.equals("TooLongFrameException")) {
			return "a frame over the limit (fiber.max-frame-size): " + error.getMessage();
		}
		return name + ": " + error.getMessage();
	}

	@Override
	public void sendFrame(int streamId, ByteBuf frame) {
		// Counted before it is handed on: the frame is released once written.
		counters.bytesSent.add(frame.readableBytes());
		delegate.sendFrame(streamId, frame);
	}

	@Override
	public void sendErrorAndClose(RSocketErrorException error) {
		// Setup refusals and protocol violations are bad input; "Disposed" on shutdown is not.
		if (error instanceof io.rsocket.exceptions.SetupException) {
			report("refused: " + error.getMessage());
		}
		delegate.sendErrorAndClose(error);
	}

	@Override
	public ByteBufAllocator alloc() {
		return delegate.alloc();
	}

	@Override
	public SocketAddress remoteAddress() {
		return delegate.remoteAddress();
	}

	@Override
	public double availability() {
		return delegate.availability();
	}

	@Override
	public Mono<Void> onClose() {
		return delegate.onClose();
	}

	@Override
	public void dispose() {
		delegate.dispose();
	}

	@Override
	public boolean isDisposed() {
		return delegate.isDisposed();
	}
}
