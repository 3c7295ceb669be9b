package io.fiberjvm.transport.rsocket;

import java.io.IOException;
import java.util.function.BiFunction;

import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.rsocket.DuplexConnection;
import io.rsocket.transport.ClientTransport;
import io.rsocket.transport.ServerTransport;
import io.rsocket.transport.netty.RSocketLengthCodec;
import io.rsocket.transport.netty.TcpDuplexConnection;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

/**
 * RSocket over TCP as rsocket-transport-netty frames it, except that a frame that spans several socket reads is
 * kept as those reads, parts of one buffer, instead of being copied together: a fragment of a large payload
 * arrives in dozens of reads, and copying each into the frame is one more pass over every byte received. On the way
 * out, a frame with a part on the heap goes to the socket as pooled direct pieces, made as the socket takes them
 * ({@link DirectWrites}).
 */
final class TcpFraming {

	/** The name of the handler that cuts frames from the bytes read. */
	private static final String FRAME_DECODER = "fiber.frame-decoder";

	private TcpFraming() {
	}

	static ClientTransport client(TcpClient client, int maxFrameLength) {
		return new ClientTransport() {
			@Override
			public Mono<DuplexConnection> connect() {
				return client.doOnConnected(connection -> handlers(connection, maxFrameLength))
						.connect()
						.flatMap(TcpFraming::ownedLocally)
						.map(connection -> new TcpDuplexConnection("client", connection));
			}

			@Override
			public int maxFrameLength() {
				return maxFrameLength;
			}
		};
	}

	/**
	 * @param watch what the server makes of each connection, given what its peer sends ({@link PeerInput})
	 */
	static ServerTransport<ListeningChannel> server(TcpServer server, int maxFrameLength,
			BiFunction<DuplexConnection, PeerInput, DuplexConnection> watch) {
		return new ServerTransport<>() {
			@Override
			public Mono<ListeningChannel> start(ConnectionAcceptor acceptor) {
				return server.doOnConnection(connection -> {
					PeerInput input = new PeerInput();
					handlers(connection, maxFrameLength);
					connection.channel().pipeline().addBefore(FRAME_DECODER, "fiber.peer-bytes", input.bytesIn())
							.addAfter(FRAME_DECODER, "fiber.peer-frames", input.framesIn());
					acceptor.apply(watch.apply(new TcpDuplexConnection("server", connection), input)).then(Mono.<Void>never())
							.subscribe(connection.disposeSubscriber());
				}).bind().map(ListeningChannel::new);
			}

			@Override
			public int maxFrameLength() {
				return maxFrameLength;
			}
		};
	}

	/**
	 * The connection, unless it is a Unix domain socket held by another user ({@link LocalSockets#heldByThisUser}):
	 * that one is closed and refused, and the peer goes on to TCP.
	 */
	private static Mono<Connection> ownedLocally(Connection connection) {
		if (!(connection.channel().remoteAddress() instanceof DomainSocketAddress)) {
			return Mono.just(connection);
		}
		// A local socket whose holder cannot be asked (-1) is refused like one held by another user.
		long user = -1;
		if (connection.channel() instanceof EpollDomainSocketChannel local) {
			try {
				user = local.peerCredentials().uid();
			}
			catch (IOException e) {
				// Not asked: refused below.
			}
		}
		if (LocalSockets.heldByThisUser(user)) {
			return Mono.just(connection);
		}
		connection.dispose();
		return Mono.error(new IOException("the local socket " + connection.channel().remoteAddress() + " is held by user " + user
				+ ", not this process's; not talking to it"));
	}

	private static void handlers(Connection connection, int maxFrameLength) {
		connection.addHandlerLast(FRAME_DECODER, decoder(maxFrameLength)).addHandlerLast("fiber.direct-writes", new DirectWrites());
	}

	private static RSocketLengthCodec decoder(int maxFrameLength) {
		RSocketLengthCodec decoder = new RSocketLengthCodec(maxFrameLength);
		decoder.setCumulator(ByteToMessageDecoder.COMPOSITE_CUMULATOR);
		return decoder;
	}
}
