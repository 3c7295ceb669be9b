package io.fiberjvm.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Where a received value is decoded: on a {@code boundedElastic} worker when it is large and the frame came in on a
 * connection's thread, else where it is. Decoding copies every byte into a new array, which for a gigabyte holds
 * the thread for a second or more; a connection's thread serves other connections' keep-alives too, and a peer
 * that hears none for the keep-alive timeout drops the connection.
 *
 * <p>Whatever a decoding throws, errors included (a class that fails to initialize, a stack overflow on a deep
 * graph, memory running out), reaches the one waiting for the value, so nobody waits for ever.
 */
public final class LargeDecoding {

	/** Values of this many bytes or more are decoded off a connection's thread. */
	public static final int LARGE = 1 << 20;

	private LargeDecoding() {
	}

	/** Whether decoding {@code value} here would hold up a connection's thread. */
	public static boolean holdsUpConnection(@Nullable ByteBuffer value) {
		return value != null && value.remaining() >= LARGE && Schedulers.isInNonBlockingThread();
	}

	/**
	 * Runs {@code decode} of {@code value} where it cannot hold up a connection's thread; what it throws goes to
	 * {@code failed}.
	 */
	public static void run(@Nullable ByteBuffer value, Runnable decode, Consumer<Throwable> failed) {
		if (!holdsUpConnection(value)) {
			guarded(decode, failed);
			return;
		}
		try {
			Schedulers.boundedElastic().schedule(() -> guarded(decode, failed));
		}
		catch (RejectedExecutionException full) {
			// Every worker busy and the queue full: decoding here late beats not decoding.
			guarded(decode, failed);
		}
	}

	private static void guarded(Runnable decode, Consumer<Throwable> failed) {
		try {
			decode.run();
		}
		catch (Throwable e) {
			failed.accept(e);
		}
	}

	/**
	 * {@code decode} of {@code value} as a {@code Mono}, empty for null, run where it cannot hold up a connection's
	 * thread; what it throws is the {@code Mono}'s error.
	 */
	public static <T> Mono<T> mono(@Nullable ByteBuffer value, Supplier<? extends @Nullable T> decode) {
		return Mono.create(sink -> run(value, () -> sink.success(decode.get()), sink::error));
	}
}
