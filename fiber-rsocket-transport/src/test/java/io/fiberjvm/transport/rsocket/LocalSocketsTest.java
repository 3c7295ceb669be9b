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
	void aServerWhoseNameSomeoneElseHoldsIsReachedThroughTcp() {
		assumeTrue(LocalSockets.available(), "no native transport here");
		RSocketTransport transport = new RSocketTransport(SETTINGS);
		// Someone else holds the name first and closes whatever connects to it.
		int port = freePort();
		DomainSocketAddress name = LocalSockets.forServer(SETTINGS.secret(), "127.0.0.1", port);
		java.util.concurrent.atomic.AtomicInteger contacted = new java.util.concurrent.atomic.AtomicInteger();
		DisposableServer squatter = TcpServer.create().bindAddress(() -> name)
				.doOnConnection(connection -> {
					contacted.incrementAndGet();
					connection.dispose();
				}).bindNow(WAIT);
		TransportServer bound = transport.bind(new Endpoint("127.0.0.1", port), peer -> echo()).block(WAIT);
		RSocketServerHandle server = (RSocketServerHandle) bound;
		try {
			assertThat(server.hasLocalSocket()).isFalse();
			Connection connection = transport.connect(new Endpoint("127.0.0.1", port), "peer", Router.none()).block(WAIT);
			assertThat(echoed(connection)).isEqualTo("hi");
			assertThat(contacted.get()).as("the holder of the name was tried first").isEqualTo(1);
			connection.dispose();
		}
		finally {
			server.dispose();
			squatter.disposeNow(WAIT);
		}
	}

	@Test
	void aNameHeldByAnotherUserIsNeverTalkedTo() throws Exception {
		assumeTrue(LocalSockets.available(), "no native transport here");
		assumeTrue("root".equals(System.getProperty("user.name")) && new java.io.File("/usr/sbin/runuser").canExecute()
				&& new java.io.File("/usr/bin/python3").canExecute(), "needs root, runuser and python3 to hold a name as another user");
		int port = freePort();
		String name = LocalSockets.forServer(SETTINGS.secret(), "127.0.0.1", port).path().substring(1);
		java.nio.file.Path heard = java.nio.file.Files.createTempFile(java.nio.file.Path.of("/tmp"), "heard", ".txt");
		heard.toFile().setWritable(true, false);
		// Another user holds the name, accepts one connection and writes down how many bytes it was sent.
		String holder = "import socket,sys\n"
				+ "s=socket.socket(socket.AF_UNIX); s.bind('\\0' + sys.argv[1]); s.listen(1); s.settimeout(60)\n"
				+ "print('ready', flush=True)\n"
				+ "c,_=s.accept(); c.settimeout(10); n=0\n"
				+ "try:\n  while True:\n    b=c.recv(4096)\n    if not b: break\n    n+=len(b)\nexcept Exception: pass\n"
				+ "open(sys.argv[2],'w').write(str(n))\n";
		Process other = new ProcessBuilder("/usr/sbin/runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", holder, name, heard.toString())
				.redirectErrorStream(true).start();
		try {
			String first = new java.io.BufferedReader(new java.io.InputStreamReader(other.getInputStream())).readLine();
			assumeTrue("ready".equals(first), "cannot hold a name as user nobody here: " + first);
			RSocketTransport transport = new RSocketTransport(SETTINGS);
			RSocketServerHandle server = (RSocketServerHandle) transport.bind(new Endpoint("127.0.0.1", port), peer -> echo()).block(WAIT);
			try {
				Connection connection = transport.connect(new Endpoint("127.0.0.1", port), "peer", Router.none()).block(WAIT);
				assertThat(echoed(connection)).isEqualTo("hi");
				connection.dispose();
			}
			finally {
				server.dispose();
			}
			assertThat(other.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
			assertThat(java.nio.file.Files.readString(heard)).as("bytes the other user's socket was sent").isEqualTo("0");
		}
		finally {
			// runuser waits for its child: end the child itself too.
			other.descendants().forEach(ProcessHandle::destroyForcibly);
			other.destroyForcibly();
			java.nio.file.Files.deleteIfExists(heard);
		}
	}

	@Test
	void onlyAddressesOfThisMachineLookForALocalSocketAndEachServerHasANameOfItsOwn() {
		assumeTrue(LocalSockets.available(), "no native transport here");
		assertThat(LocalSockets.forPeer("s", "127.0.0.1", 5000)).containsExactly(
				LocalSockets.forServer("s", "127.0.0.1", 5000), LocalSockets.forServer("s", "0.0.0.0", 5000));
		assertThat(LocalSockets.forPeer("s", "::1", 5000)).first().isEqualTo(LocalSockets.forServer("s", "::1", 5000));
		assertThat(LocalSockets.forServer("s", "::1", 5000)).as("another address, another server")
				.isNotEqualTo(LocalSockets.forServer("s", "127.0.0.1", 5000));
		assertThat(LocalSockets.forServer("s", "::", 5000)).as("every interface, whichever family")
				.isEqualTo(LocalSockets.forServer("s", "0.0.0.0", 5000));
		assertThat(LocalSockets.forPeer("s", "localhost", 5000)).as("a name is not looked up").isEmpty();
		assertThat(LocalSockets.forPeer("s", "192.0.2.1", 5000)).as("a documentation address, never this machine's").isEmpty();
		assertThat(LocalSockets.forServer("s", "localhost", 5000)).isNull();
		assertThat(LocalSockets.forServer("other", "127.0.0.1", 5000)).as("another run's name")
				.isNotEqualTo(LocalSockets.forServer("s", "127.0.0.1", 5000));
		assertThat(LocalSockets.heldByThisUser(-1)).isFalse();
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
