package io.fiberjvm.transport.rsocket;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.function.BiConsumer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.rsocket.DuplexConnection;
import io.rsocket.RSocketErrorException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A server-side raw connection that reports why it was closed when the peer sent bad input: bytes
 * that are not frames, a frame over the limit, or no setup frame in time; and counts the bytes of the
 * frames it reads and writes.
 */
final class WatchedConnection implements DuplexConnection {

	private final DuplexConnection delegate;
	private final ServerCounters counters;
	private final BiConsumer<String, String> report;
	private final Duration firstFrameTimeout;
	private volatile boolean framed;
	private volatile boolean reported;

	WatchedConnection(DuplexConnection delegate, Duration firstFrameTimeout, ServerCounters counters, BiConsumer<String, String> report) {
		this.delegate = delegate;
		this.counters = counters;
		this.firstFrameTimeout = firstFrameTimeout;
		this.report = report;
		delegate.onClose().doFinally(signal -> {
			if (!framed) {
				report("closed without a frame within " + firstFrameTimeout + " (not an RSocket peer?)");
			}
		}).subscribe(done -> { }, error -> { });
	}

	private void report(String reason) {
		if (!reported) {
			reported = true;
			counters.rejected.increment();
			report.accept(String.valueOf(delegate.remoteAddress()), reason);
		}
	}

	@Override
	public Flux<ByteBuf> receive() {
		return delegate.receive()
				.doOnNext(frame -> {
					framed = true;
					counters.bytesReceived.add(frame.readableBytes());
				})
				.doOnError(error -> {
					if (error instanceof java.io.IOException) {
						// A reset or broken pipe is a peer going away, not bad input.
						framed = true;
						return;
					}
					report("malformed input: " + describe(error));
					// RSocket stops reading but may leave the socket open; the peer must learn it was cut off.
					delegate.dispose();
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
