package io.fiberjvm.transport.rsocket;

import java.io.IOException;

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

	static ServerTransport<ListeningChannel> server(TcpServer server, int maxFrameLength) {
		return new ServerTransport<>() {
			@Override
			public Mono<ListeningChannel> start(ConnectionAcceptor acceptor) {
				return server.doOnConnection(connection -> {
					handlers(connection, maxFrameLength);
					acceptor.apply(new TcpDuplexConnection("server", connection)).then(Mono.<Void>never())
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
		connection.addHandlerLast(decoder(maxFrameLength)).addHandlerLast("fiber.direct-writes", new DirectWrites());
	}

	private static RSocketLengthCodec decoder(int maxFrameLength) {
		RSocketLengthCodec decoder = new RSocketLengthCodec(maxFrameLength);
		decoder.setCumulator(ByteToMessageDecoder.COMPOSITE_CUMULATOR);
		return decoder;
	}
}
