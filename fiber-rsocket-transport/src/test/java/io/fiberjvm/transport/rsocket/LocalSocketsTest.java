package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.netty.channel.unix.DomainSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpServer;

import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Peers on one machine talk through the server's Unix domain socket, and through TCP whenever it cannot be had. */
@Timeout(60)
class LocalSocketsTest {

	private static final Duration WAIT = Duration.ofSeconds(30);
	private static final TransportSettings SETTINGS = new TransportSettings("local-sockets-secret", 1 << 20, 64 << 20,
			Duration.ofMillis(500), Duration.ofSeconds(3));

	private static Router echo() {
		return Routes.empty().withResponse("echo", bytes -> Mono.just(bytes));
	}

	private static String echoed(Connection connection) {
		byte[] answer = connection.requestResponse("echo", "hi".getBytes(StandardCharsets.UTF_8)).block(WAIT);
		return new String(answer, StandardCharsets.UTF_8);
	}

	@Test
	void aPeerOnThisMachineComesThroughTheLocalSocketOfALoopbackOrWildcardServer() {
		assumeTrue(LocalSockets.available(), "no native transport here");
		for (String host : List.of("127.0.0.1", "0.0.0.0")) {
			RSocketTransport transport = new RSocketTransport(SETTINGS);
			RSocketServerHandle server = (RSocketServerHandle) transport.bind(new Endpoint(host, 0), peer -> echo()).block(WAIT);
			try {
				assertThat(server.hasLocalSocket()).as("bound on %s", host).isTrue();
				Connection connection = transport.connect(new Endpoint("127.0.0.1", server.address().port()), "peer", Router.none()).block(WAIT);
				assertThat(echoed(connection)).isEqualTo("hi");
				assertThat(server.localConnections()).as("bound on %s", host).isEqualTo(1);
				connection.dispose();
			}
			finally {
				server.dispose();
			}
		}
	}

	@Test
	void aPeerOfAnotherRunOrAServerWithoutItsSocketIsReachedThroughTcp() {
		assumeTrue(LocalSockets.available(), "no native transport here");
		RSocketTransport transport = new RSocketTransport(SETTINGS);
		// Someone else holds the name first and closes whatever connects to it.
		int port = freePort();
		DomainSocketAddress name = LocalSockets.forServer(SETTINGS.secret(), "127.0.0.1", port);
		DisposableServer squatter = TcpServer.create().bindAddress(() -> name)
				.doOnConnection(connection -> connection.dispose()).bindNow(WAIT);
		TransportServer bound = transport.bind(new Endpoint("127.0.0.1", port), peer -> echo()).block(WAIT);
		RSocketServerHandle server = (RSocketServerHandle) bound;
		try {
			assertThat(server.hasLocalSocket()).isFalse();
			Connection connection = transport.connect(new Endpoint("127.0.0.1", port), "peer", Router.none()).block(WAIT);
			assertThat(echoed(connection)).isEqualTo("hi");
			assertThat(server.localConnections()).isZero();
			connection.dispose();
		}
		finally {
			server.dispose();
			squatter.disposeNow(WAIT);
		}
	}

	@Test
	void onlyAddressesOfThisMachineLookForALocalSocket() {
		assertThat(LocalSockets.forPeer("s", "127.0.0.1", 5000)).hasSize(2);
		assertThat(LocalSockets.forPeer("s", "localhost", 5000)).isNotEmpty();
		assertThat(LocalSockets.forPeer("s", "192.0.2.1", 5000)).as("a documentation address, never this machine's").isEmpty();
		assertThat(LocalSockets.forPeer("s", "no-such-host.invalid", 5000)).isEmpty();
		assertThat(LocalSockets.forServer("s", "192.0.2.1", 5000)).isNull();
		assertThat(LocalSockets.forServer("s", "127.0.0.1", 5000)).isEqualTo(LocalSockets.forPeer("s", "127.0.0.1", 5000).get(0));
		assertThat(LocalSockets.forServer("s", "0.0.0.0", 5000)).isEqualTo(LocalSockets.forPeer("s", "127.0.0.1", 5000).get(1));
		assertThat(LocalSockets.forServer("other", "127.0.0.1", 5000)).as("another run's name")
				.isNotEqualTo(LocalSockets.forServer("s", "127.0.0.1", 5000));
	}

	private static int freePort() {
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (java.io.IOException e) {
			throw new java.io.UncheckedIOException(e);
		}
	}
}
