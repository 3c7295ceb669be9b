package io.fiberjvm.runtime;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberException;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

/**
 * A job-backed process's session with the service of its parent that started it: one request-channel on the
 * service's route, frames up in the order they are {@link #send sent}, frames down as they are asked for. A
 * pool's worker, a ring's member and a manager's host each hold one for as long as they work.
 *
 * <p>Frames down arrive one of two ways, chosen when the session opens: into an inbox that the target's
 * thread {@link #take}s from, asking for more as it goes ({@link #open(Connection, String, String, int)}); or
 * to a handler on the connection's thread, as fast as they come ({@link #open(Connection, String, String,
 * Consumer)}). The parent ends the session: {@link #take} then returns null and {@link #await} returns. An
 * error from the parent, a lost connection or a handler's exception ends it too, and {@code take} and
 * {@code await} throw an exception naming the service and the cause.
 *
 * <p>Frames down are arrays, or what a reader the session opens with makes of their bytes where the transport
 * received them ({@link #open(Connection, String, String, int, InboundReader)}); a reader that throws ends the
 * session with what it threw.
 *
 * @param <T> what a frame down is read as
 */
public final class ParentSession<T> {

	private static final Object END = new Object();

	private final String service;
	private final Sinks.Many<Outbound> up = Sinks.many().unicast().onBackpressureBuffer();
	private final Down down;
	private final @Nullable BlockingQueue<Object> inbox;
	private final CountDownLatch ended = new CountDownLatch(1);
	private volatile @Nullable Throwable failure;

	private ParentSession(String service, long initialDemand, @Nullable Consumer<T> handler, @Nullable Predicate<? super T> urgent) {
		this.service = service;
		this.inbox = handler == null ? new LinkedBlockingQueue<>() : null;
		this.down = new Down(initialDemand, handler, urgent);
	}

	/**
	 * A session whose frames down wait in an inbox for {@link #take}; {@code prefetch} frames are asked for at
	 * once, and one more for each {@link #request}.
	 *
	 * @param service how errors name the service ({@code "the pool"})
	 */
	public static ParentSession<byte[]> open(Connection parent, String route, String service, int prefetch) {
		return open(parent, route, service, prefetch, InboundReader.bytes());
	}

	/** As {@link #open(Connection, String, String, int)}, with frames down read by {@code reader}. */
	public static <T> ParentSession<T> open(Connection parent, String route, String service, int prefetch,
			InboundReader<T> reader) {
		return open(parent, route, service, prefetch, reader, frame -> false);
	}

	/**
	 * As {@link #open(Connection, String, String, int, InboundReader)}, except that a frame {@code urgent} takes
	 * (returns true for) is handled by it where it arrives, on the connection's thread, while the target's thread
	 * may be busy: it never waits in the inbox, and one more frame is asked for at once in its place. {@code urgent}
	 * must be quick and must not block; one that throws ends the session with what it threw.
	 */
	public static <T> ParentSession<T> open(Connection parent, String route, String service, int prefetch,
			InboundReader<T> reader, Predicate<? super T> urgent) {
		if (prefetch < 0) {
			throw new IllegalArgumentException("prefetch " + prefetch + " must not be negative");
		}
		return new ParentSession<T>(Objects.requireNonNull(service, "service"), prefetch, null,
				Objects.requireNonNull(urgent, "urgent")).start(parent, route, reader);
	}

	/** A session whose frames down go to {@code handler}, on the connection's thread, in order, as fast as they come. */
	public static ParentSession<byte[]> open(Connection parent, String route, String service, Consumer<byte[]> handler) {
		return open(parent, route, service, InboundReader.bytes(), handler);
	}

	/** As {@link #open(Connection, String, String, Consumer)}, with frames down read by {@code reader}. */
	public static <T> ParentSession<T> open(Connection parent, String route, String service, InboundReader<T> reader,
			Consumer<T> handler) {
		return new ParentSession<T>(Objects.requireNonNull(service, "service"), Long.MAX_VALUE,
				Objects.requireNonNull(handler, "handler"), null).start(parent, route, reader);
	}

	private ParentSession<T> start(Connection parent, String route, InboundReader<T> reader) {
		Objects.requireNonNull(parent, "parent").requestChannel(Objects.requireNonNull(route, "route"),
				up.asFlux(), Objects.requireNonNull(reader, "reader")).subscribe(down);
		return this;
	}

	/** Sends a frame up, after those sent before it; from any thread. A session that has ended drops it. */
	public void send(byte[] frame) {
		send(Outbound.of(frame));
	}

	/** As {@link #send(byte[])}, a frame that may say when the transport lets it go ({@link Outbound#released}). */
	public void send(Outbound frame) {
		synchronized (up) {
			up.tryEmitNext(frame);
		}
	}

	/** Asks for {@code n} more frames down. */
	public void request(long n) {
		down.request(n);
	}

	/**
	 * The next frame down, waiting as long as it takes; null once the parent has ended the session.
	 *
	 * @throws FiberException when the session ended with an error
	 */
	public @Nullable T take() {
		try {
			return unwrap(inbox().take());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new FiberException("interrupted while waiting for " + service, e);
		}
	}

	/** As {@link #take()}, waiting at most {@code timeout}, after which it fails saying so. */
	public @Nullable T take(Duration timeout) {
		try {
			Object next = inbox().poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
			if (next == null) {
				throw new FiberException(service + " did not answer within " + timeout);
			}
			return unwrap(next);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new FiberException("interrupted while waiting for " + service, e);
		}
	}

	/**
	 * Waits until the session has ended: returns when the parent ended it, throws when it ended with an error.
	 */
	public void await() {
		try {
			ended.await();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new FiberException("interrupted while serving " + service, e);
		}
		Throwable error = failure;
		if (error != null) {
			throw ended(error);
		}
	}

	/** Ends the session from this side because of {@code error}: nothing more arrives, and waiters fail with it. */
	public void fail(Throwable error) {
		down.dispose();
		down.finish(error);
	}

	/** Ends the frames up: the parent sees this side's end. */
	public void close() {
		synchronized (up) {
			up.tryEmitComplete();
		}
	}

	private BlockingQueue<Object> inbox() {
		if (inbox == null) {
			throw new IllegalStateException("this session hands its frames to a handler; there is nothing to take");
		}
		return inbox;
	}

	@SuppressWarnings("unchecked")
	private @Nullable T unwrap(Object next) {
		if (next == END) {
			inbox().add(END);
			return null;
		}
		if (next instanceof Throwable error) {
			inbox().add(error);
			throw ended(error);
		}
		return (T) next;
	}

	private FiberException ended(Throwable error) {
		return new FiberException(service + "'s session ended with an error: " + error.getMessage(), error);
	}

	/** Frames down, into the inbox or to the handler. */
	private final class Down extends BaseSubscriber<T> {

		private final long initialDemand;
		private final @Nullable Consumer<T> handler;
		private final @Nullable Predicate<? super T> urgent;

		Down(long initialDemand, @Nullable Consumer<T> handler, @Nullable Predicate<? super T> urgent) {
			this.initialDemand = initialDemand;
			this.handler = handler;
			this.urgent = urgent;
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			if (initialDemand > 0) {
				subscription.request(initialDemand);
			}
		}

		@Override
		protected void hookOnNext(T frame) {
			if (handler == null) {
				Predicate<? super T> urgent = this.urgent;
				if (urgent != null && isUrgent(urgent, frame)) {
					request(1);
					return;
				}
				inbox().add(frame);
				return;
			}
			try {
				handler.accept(frame);
			}
			catch (RuntimeException e) {
				fail(e);
			}
		}

		private boolean isUrgent(Predicate<? super T> urgent, T frame) {
			try {
				return urgent.test(frame);
			}
			catch (RuntimeException e) {
				fail(e);
				return true;
			}
		}

		@Override
		protected void hookOnComplete() {
			finish(null);
		}

		@Override
		protected void hookOnError(Throwable error) {
			finish(error);
		}

		void finish(@Nullable Throwable error) {
			synchronized (this) {
				if (ended.getCount() == 0) {
					return;
				}
				failure = error;
				if (inbox != null) {
					inbox.add(error == null ? END : error);
				}
				ended.countDown();
			}
		}
	}
}
