package io.fiberjvm.transport;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.AsyncCloseable;

/**
 * A listening transport endpoint: peers connect, authenticate with the run's secret and are
 * handed to the {@link Acceptor}.
 *
 * <p>Bad input from one peer (a wrong secret, bytes that are not frames, a frame over the limit)
 * closes that peer's connection only; the server goes on serving the others and reports each
 * case on {@link #rejections()}.
 */
public interface TransportServer extends AsyncCloseable, Disposable {

	/** The address peers connect to; the real port when 0 was asked for. */
	Endpoint address();

	/** Connections refused or closed for bad input, as they happen. Hot; nothing is replayed. */
	Flux<RejectedConnection> rejections();

	/** Its counters now; a transport that keeps none reports {@link TransportStats#NONE}. */
	default TransportStats stats() {
		return TransportStats.NONE;
	}

	/** Completes when the server has stopped listening. */
	@Override
	Mono<Void> onClose();

	/** Stops listening and closes every connection when subscribed; completes once it has stopped. */
	@Override
	default Mono<Void> closeAsync() {
		return Mono.defer(() -> {
			dispose();
			return onClose();
		});
	}

	/** Stops listening and closes every connection, returning at once. */
	@Override
	void dispose();
}
