package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.Function;

import io.netty.channel.ChannelOption;
import io.netty.channel.unix.DomainSocketAddress;
import io.rsocket.ConnectionSetupPayload;
import io.rsocket.DuplexConnection;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketConnector;
import io.rsocket.core.RSocketServer;
import io.rsocket.exceptions.RejectedSetupException;
import io.rsocket.frame.decoder.PayloadDecoder;
import io.rsocket.util.DefaultPayload;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import io.fiberjvm.transport.Acceptor;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.ConnectionRejectedException;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Transport;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;

/**
 * RSocket over TCP: the setup frame carries the run's secret (data) and the peer's name (metadata),
 * routes travel as request metadata, demand as RSocket credits.
 *
 * <p>Both ends limit frames to {@code maxFrameSize}; both ends send keep-alives and close a connection
 * whose peer has been silent for the keep-alive timeout. A server closes a peer that sends no setup
 * frame within the keep-alive timeout.
 */
public final class RSocketTransport implements Transport {

	private static final Logger log = LoggerFactory.getLogger(RSocketTransport.class);
	/** How long a connection through a local socket may take before the peer goes on to TCP. */
	private static final Duration LOCAL_WAIT = Duration.ofSeconds(5);

	private final TransportSettings settings;
	private final SecretProof proof;
	/** TLS for connections over the network, when the settings ask for it; local sockets stay on this machine. */
	private final @Nullable TlsContexts tls;

	public RSocketTransport(TransportSettings settings) {
		this.settings = Objects.requireNonNull(settings, "settings");
		this.proof = new SecretProof(settings.secret());
		// A handshake is bounded like a silent peer: by the keep-alive timeout, and no less than 10 s.
		this.tls = settings.tls() ? TlsContexts.forRun(settings.secret(),
				settings.keepAliveTimeout().compareTo(java.time.Duration.ofSeconds(10)) > 0 ? settings.keepAliveTimeout()
						: java.time.Duration.ofSeconds(10)) : null;
	}

	@Override
	public Mono<TransportServer> bind(Endpoint endpoint, Acceptor acceptor) {
		Objects.requireNonNull(endpoint, "endpoint");
		Objects.requireNonNull(acceptor, "acceptor");
		return Mono.defer(() -> {
			RejectionFeed rejections = new RejectionFeed();
			Set<RSocket> peers = ConcurrentHashMap.newKeySet();
			ServerCounters counters = new ServerCounters();
			SocketAcceptor socketAcceptor = (setup, requester) -> accept(setup, requester, acceptor)
					.doOnNext(responder -> {
						counters.accepted.increment();
						peers.add(requester);
						requester.onClose().doFinally(signal -> peers.remove(requester)).subscribe(done -> { }, error -> { });
					});
			BiFunction<DuplexConnection, PeerInput, DuplexConnection> watch = (connection, input) -> {
				if (connection.remoteAddress() instanceof DomainSocketAddress) {
					counters.local.increment();
				}
				return new WatchedConnection(connection, input, settings.keepAliveTimeout(), counters,
						rejections::report);
			};
			Function<TcpServer, Mono<ListeningChannel>> serve = tcp -> RSocketServer.create(socketAcceptor)
					.fragment(fragmentSize())
					.maxInboundPayloadSize(settings.maxPayloadSize())
					.maxTimeToFirstFrame(settings.keepAliveTimeout())
					.payloadDecoder(PayloadDecoder.ZERO_COPY)
					.bind(TcpFraming.server(tcp.childOption(ChannelOption.ALLOCATOR, ReassemblingAllocator.INSTANCE), settings.maxFrameSize(),
							watch));
			TcpServer network = TcpServer.create().host(endpoint.host()).port(endpoint.port());
			return serve.apply(tls != null ? tls.secure(network) : network)
					.flatMap(channel -> Mono.defer(() -> local(serve, endpoint.host(), channel.address().getPort()))
							.map(local -> new RSocketServerHandle(channel, local, rejections, peers, counters))
							.defaultIfEmpty(new RSocketServerHandle(channel, null, rejections, peers, counters))
							.onErrorResume(error -> {
								channel.dispose();
								return Mono.error(error);
							})
							.doOnCancel(channel::dispose))
					.map(handle -> (TransportServer) handle);
		});
	}

	/**
	 * The server's Unix domain socket beside its TCP port {@code port}, or none where it has none: its connections
	 * then all come over TCP, as they would anyway.
	 */
	private Mono<ListeningChannel> local(Function<TcpServer, Mono<ListeningChannel>> serve, String host, int port) {
		DomainSocketAddress name = LocalSockets.forServer(settings.secret(), host, port);
		if (name == null) {
			return Mono.empty();
		}
		return serve.apply(TcpServer.create().bindAddress(() -> name)).onErrorResume(error -> {
			log.debug("no local socket beside port {}; peers on this machine use TCP: {}", port, error.toString());
			return Mono.empty();
		});
	}

	private Mono<RSocket> accept(ConnectionSetupPayload setup, RSocket requester, Acceptor acceptor) {
		byte[] presented = Frames.bytes(setup.retain());
		String peer = setup.hasMetadata() ? setup.getMetadataUtf8() : "";
		String refusal = peer.isEmpty() ? "the setup frame names no peer" : proof.refusal(presented, peer);
		if (refusal != null) {
			// WatchedConnection reports it, with the peer's address.
			return Mono.error(new RejectedSetupException(refusal));
		}
		try {
			Router router = acceptor.accept(new RSocketConnection(requester, peer, settings.maxPayloadSize()));
			return Mono.just(new RouterResponder(Objects.requireNonNull(router, "router"), settings.maxFrameSize(),
					settings.maxPayloadSize(), proof));
		}
		catch (RuntimeException e) {
			return Mono.error(new RejectedSetupException(String.valueOf(e.getMessage())));
		}
	}

	/**
	 * The largest fragment a payload is cut into: the frame limit, and no more than 960 KiB. RSocket queues all
	 * of a payload's fragments at once; keep-alives pass between them, other streams of the connection wait.
	 */
	private int fragmentSize() {
		return Math.min(settings.maxFrameSize(), 960 * 1024);
	}

	@Override
	public Mono<Connection> connect(Endpoint endpoint, String peerName, Router router) {
		Objects.requireNonNull(endpoint, "endpoint");
		Objects.requireNonNull(peerName, "peerName");
		Objects.requireNonNull(router, "router");
		List<DomainSocketAddress> local = LocalSockets.forPeer(settings.secret(), endpoint.host(), endpoint.port());
		TcpClient network = TcpClient.create().host(endpoint.host()).port(endpoint.port());
		Mono<Connection> attempt = connect(endpoint, peerName, router, tls != null ? tls.secure(network) : network);
		// A server of the run on this machine is reached through its local socket when it has one; TCP otherwise.
		for (int i = local.size() - 1; i >= 0; i--) {
			DomainSocketAddress name = local.get(i);
			Mono<Connection> otherwise = attempt;
			// A holder of the name that never answers costs a short wait, not the keep-alive timeout.
			attempt = connect(endpoint, peerName, router, TcpClient.create().remoteAddress(() -> name))
					.timeout(LOCAL_WAIT)
					.onErrorResume(error -> otherwise);
		}
		return attempt;
	}

	private Mono<Connection> connect(Endpoint endpoint, String peerName, Router router, TcpClient client) {
		return RSocketConnector.create()
				.setupPayload(Mono.fromCallable(() -> DefaultPayload.create(proof.setupFor(peerName),
						peerName.getBytes(StandardCharsets.UTF_8))))
				.keepAlive(settings.keepAliveInterval(), settings.keepAliveTimeout())
				.fragment(fragmentSize())
				.maxInboundPayloadSize(settings.maxPayloadSize())
				.payloadDecoder(PayloadDecoder.ZERO_COPY)
				.acceptor(SocketAcceptor.with(new RouterResponder(router, settings.maxFrameSize(), settings.maxPayloadSize(), proof)))
				.connect(TcpFraming.client(client.option(ChannelOption.ALLOCATOR, ReassemblingAllocator.INSTANCE), settings.maxFrameSize()))
				.onErrorMap(e -> new io.fiberjvm.FiberException("cannot connect to " + endpoint + ": " + e.getMessage(), e))
				.flatMap(socket -> {
					Connection connection = new RSocketConnection(socket, endpoint.toString(), settings.maxPayloadSize());
					// RSocket answers no setup; the hello proves the server accepted ours and knows the secret too.
					String nonce = SecretProof.nonce();
					return connection.requestResponse(RouterResponder.HELLO, nonce.getBytes(StandardCharsets.UTF_8))
							.flatMap(answer -> proof.checksHelloAnswer(nonce, answer) ? Mono.just(connection)
									: Mono.error(new ConnectionRejectedException("the server at " + endpoint
											+ " does not know the run's secret; not talking to it", null)))
							.doOnError(e -> socket.dispose())
							.doOnCancel(socket::dispose);
				});
	}

	@Override
	public String toString() {
		return "RSocketTransport" + settings;
	}
}
