package io.fiberjvm.internal.runtime;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Transport;

/**
 * A runtime's connections to the other runtimes of its run: one shared, authenticated connection per peer,
 * made on first use and forgotten when it closes, and dedicated ones for traffic that must not queue behind it.
 */
final class PeerConnections {

	private final Transport transport;
	private final String name;
	private final Router router;
	private final BooleanSupplier closed;
	private final Function<String, FiberException> closedError;
	private final Map<Endpoint, Mono<Connection>> shared = new ConcurrentHashMap<>();

	/**
	 * @param name the name this runtime gives the peers it connects to
	 * @param router answers what peers ask over these connections
	 */
	PeerConnections(Transport transport, String name, Router router, BooleanSupplier closed,
			Function<String, FiberException> closedError) {
		this.transport = transport;
		this.name = name;
		this.router = router;
		this.closed = closed;
		this.closedError = closedError;
	}

	Mono<Connection> shared(Endpoint endpoint) {
		Objects.requireNonNull(endpoint, "endpoint");
		return Mono.defer(() -> {
			if (closed.getAsBoolean()) {
				return Mono.error(closedError.apply("connect to " + endpoint));
			}
			return shared.computeIfAbsent(endpoint, e -> {
				@SuppressWarnings("unchecked")
				Mono<Connection>[] self = new Mono[1];
				// Evicts only itself: a newer connection to the same peer stays.
				self[0] = transport.connect(e, name, router)
						.flatMap(c -> openOrRefused(c, e))
						.doOnNext(c -> c.onClose().subscribe(null, null, () -> shared.remove(e, self[0])))
						.doOnError(error -> shared.remove(e, self[0]))
						.cache();
				return self[0];
			});
		});
	}

	Mono<Connection> dedicated(Endpoint endpoint) {
		Objects.requireNonNull(endpoint, "endpoint");
		return Mono.defer(() -> closed.getAsBoolean() ? Mono.error(closedError.apply("connect to " + endpoint))
				: transport.connect(endpoint, name, router).flatMap(c -> openOrRefused(c, endpoint)));
	}

	/** A connection made while the runtime closed is closed at once (closing may have missed it) and refused. */
	private Mono<Connection> openOrRefused(Connection connection, Endpoint endpoint) {
		if (closed.getAsBoolean()) {
			connection.dispose();
			return Mono.error(closedError.apply("connect to " + endpoint));
		}
		return Mono.just(connection);
	}

	/** Closes every shared connection. */
	void closeAll() {
		shared.values().forEach(c -> c.subscribe(Connection::dispose, error -> { }));
		shared.clear();
	}
}
