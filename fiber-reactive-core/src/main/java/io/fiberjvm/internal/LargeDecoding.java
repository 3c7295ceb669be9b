package io.fiberjvm.internal;

import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Where a received value is decoded: on a {@code boundedElastic} worker when it is large and the frame came in on a
 * connection's thread, else where it is. Decoding copies every byte into a new array, which for a gigabyte holds
 * the thread for a second or more; a connection's thread serves other connections' keep-alives too, and a peer
 * that hears none for the keep-alive timeout drops the connection.
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

	/** Runs {@code decode} of {@code value} where it cannot hold up a connection's thread. */
	public static void run(@Nullable ByteBuffer value, Runnable decode) {
		if (!holdsUpConnection(value)) {
			decode.run();
			return;
		}
		try {
			Schedulers.boundedElastic().schedule(decode);
		}
		catch (RejectedExecutionException full) {
			// Every worker busy and the queue full: decoding here late beats not decoding.
			decode.run();
		}
	}

	/** {@code decode} of {@code value} as a {@code Mono}, empty for null, run where it cannot hold up a connection's thread. */
	public static <T> Mono<T> mono(@Nullable ByteBuffer value, Supplier<@Nullable T> decode) {
		Mono<T> decoded = Mono.fromSupplier(decode);
		return holdsUpConnection(value) ? decoded.subscribeOn(Schedulers.boundedElastic()) : decoded;
	}
}
