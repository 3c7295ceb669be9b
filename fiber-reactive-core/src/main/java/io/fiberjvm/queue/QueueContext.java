package io.fiberjvm.queue;

import java.util.Objects;
import java.util.function.Supplier;

import reactor.core.publisher.Mono;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;

/**
 * What queues need from the runtime they belong to: its address, connections to other processes of the
 * run, the codec. A {@link io.fiberjvm.Fiber} provides one; application code does not implement it.
 */
public interface QueueContext {

	/** Where this runtime listens, binding its server if it does not listen yet. */
	Endpoint localAddress();

	/** A connection to the runtime listening at {@code endpoint}, shared by every handle that needs it. */
	Mono<Connection> connectionTo(Endpoint endpoint);

	/**
	 * A new connection to the runtime listening at {@code endpoint}, shared with no one: the caller disposes
	 * it. For traffic that should not queue behind other traffic on the shared connection (a pool worker's
	 * session, say).
	 */
	Mono<Connection> dedicatedConnectionTo(Endpoint endpoint);

	/** The codec items travel through. */
	Codec codec();

	/** The largest frame the transport carries, in bytes. */
	int maxFrameSize();

	/** The runtime's resolved configuration. */
	io.fiberjvm.config.FiberConfig config();

	/** How this runtime writes and reads values that travel between processes (its allow-list applied), made once. */
	io.fiberjvm.codec.ShippedValues values();

	/** The queues this runtime hosts and the handles it has read. */
	QueueService queues();

	/**
	 * Serves routes starting with {@code prefix} on this runtime, as {@link io.fiberjvm.Fiber#serve} does:
	 * how a module's process (a manager, say) offers its own services.
	 */
	default reactor.core.Disposable serve(String prefix, io.fiberjvm.transport.Router router) {
		throw new UnsupportedOperationException("this runtime serves no module routes");
	}

	/** The context reading handles on this thread, if any. */
	static QueueContext current() {
		return Scope.CURRENT.get();
	}

	/** Runs {@code action} with {@code context} reading any queue handles it deserializes. */
	static <T> T resolving(QueueContext context, Supplier<T> action) {
		Objects.requireNonNull(context, "context");
		QueueContext previous = Scope.CURRENT.get();
		Scope.CURRENT.set(context);
		try {
			return action.get();
		}
		finally {
			Scope.CURRENT.set(previous);
		}
	}

	/** Holds the thread's reading context. */
	final class Scope {
		private static final ThreadLocal<QueueContext> CURRENT = new ThreadLocal<>();

		private Scope() {
		}
	}
}
