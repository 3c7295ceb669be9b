package io.fiberjvm;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Something closed once, which says when: a {@link Fiber}, a pool, a queue, a manager, a connection.
 *
 * <p>{@link #closeAsync()} starts closing when subscribed and completes once closed; {@link #onClose()}
 * completes then too, whoever closed it; {@link #close()} closes and waits, for try-with-resources. Closing
 * twice is closing once. So {@code Flux.usingWhen(open, use, AsyncCloseable::closeAsync)} manages any of them.
 * Those that Reactor's and RSocket's own resources resemble (a runtime, a pool, a manager, a connection) are
 * also {@link reactor.core.Disposable}: {@code dispose()} starts closing and returns at once.
 */
public interface AsyncCloseable extends AutoCloseable {

	/**
	 * Closes when subscribed; completes once closed, or fails with what kept it from closing cleanly once it has
	 * closed all it could. Lazy, and idempotent.
	 */
	Mono<Void> closeAsync();

	/** Completes once closed, whoever closed it, failing as {@link #closeAsync()} does; subscribing does not start closing. */
	Mono<Void> onClose();

	/**
	 * Closes and waits until closed. Refused on a thread that must not block (a Reactor non-blocking thread,
	 * such as the one that delivers a network answer): use {@link #closeAsync()} there.
	 *
	 * @throws IllegalStateException on a non-blocking thread
	 * @throws RuntimeException what {@link #closeAsync()} failed with
	 */
	@Override
	default void close() {
		if (Schedulers.isInNonBlockingThread()) {
			throw new IllegalStateException(this + ".close() waits until it has closed, which a non-blocking thread ("
					+ Thread.currentThread().getName() + ") must not do; subscribe to closeAsync() instead");
		}
		closeAsync().block();
	}
}
