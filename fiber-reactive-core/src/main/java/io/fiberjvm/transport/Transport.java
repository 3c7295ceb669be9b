package io.fiberjvm.transport;

import reactor.core.publisher.Mono;

/**
 * Moves requests between processes: the SPI that {@code fiber-rsocket-transport} implements.
 *
 * <p>It is shaped like RSocket: request-response, request-stream, request-channel and
 * fire-and-forget, over named routes, carrying bytes (typed values go through a
 * {@link io.fiberjvm.codec.Codec}, see {@link Messenger} and {@link Routes}). Every connection is
 * authenticated by the run's secret at setup, its frames limited by a frame size (a larger payload travels in
 * fragments, up to {@link TransportSettings#maxPayloadSize()}), and kept alive so a dead peer
 * is noticed within seconds. Nothing happens until the returned Mono is subscribed.
 */
public interface Transport {

	/** Listens on {@code endpoint}; each peer that presents the secret is handed to {@code acceptor}. */
	Mono<TransportServer> bind(Endpoint endpoint, Acceptor acceptor);

	/**
	 * Connects to a server as {@code peerName}; {@code router} answers requests the server sends back.
	 * Emits once the server has accepted the setup, or fails with {@link ConnectionRejectedException}.
	 */
	Mono<Connection> connect(Endpoint endpoint, String peerName, Router router);
}
