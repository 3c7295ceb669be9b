package io.fiberjvm.transport.rsocket;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

import io.rsocket.RSocket;
import io.rsocket.core.RSocketConnector;
import io.rsocket.exceptions.RejectedSetupException;
import io.rsocket.transport.netty.client.TcpClientTransport;
import io.rsocket.util.DefaultPayload;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Messenger;
import io.fiberjvm.transport.RejectedConnection;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Peers that do not speak the protocol properly: each gets a clear refusal or a closed connection,
 * the server says why on {@link TransportServer#rejections()}, and goes on serving a good client.
 */
class RSocketBadInputTest {

	private static final String SECRET = "the-run-secret";
	private static final int LIMIT = 64 * 1024;

	private final TransportSettings settings = new TransportSettings(SECRET, LIMIT, LIMIT * 4, Duration.ofMillis(500), Duration.ofSeconds(3));
	private final List<RejectedConnection> rejected = new CopyOnWriteArrayList<>();
	private TransportServer server;

	@BeforeEach
	void serve() {
		Routes routes = Routes.empty().withResponse("echo", String.class, Mono::just);
		server = new RSocketTransport(settings).bind(new Endpoint("127.0.0.1", 0), peer -> routes).block(Duration.ofSeconds(10));
		server.rejections().subscribe(rejected::add);
	}

	@AfterEach
	void stop() {
		server.dispose();
	}

	private void assertServerStillServes() {
		Connection good = new RSocketTransport(settings).connect(server.address(), "good", Router.none()).block(Duration.ofSeconds(10));
		try {
			StepVerifier.create(Messenger.over(good, Codec.standard()).request("echo", "still here", String.class))
					.expectNext("still here")
					.verifyComplete();
		}
		finally {
			good.dispose();
		}
	}

	private RSocket rawClient(byte[] secret, int clientFrameLimit) {
		return RSocketConnector.create()
				.setupPayload(DefaultPayload.create(secret, "raw".getBytes(StandardCharsets.UTF_8)))
				.connect(TcpClientTransport.create(reactor.netty.tcp.TcpClient.create()
						.host(server.address().host()).port(server.address().port()), clientFrameLimit))
				.block(Duration.ofSeconds(10));
	}

	@Test
	void setupWithoutSecretIsRefused() {
		RSocket raw = rawClient(new byte[0], LIMIT);
		StepVerifier.create(raw.requestResponse(DefaultPayload.create("hi", "echo")))
				.expectErrorMatches(e -> e instanceof RejectedSetupException && e.getMessage().contains("no secret"))
				.verify(Duration.ofSeconds(10));
		await().atMost(Duration.ofSeconds(10)).until(() -> rejected.stream().anyMatch(r -> r.reason().contains("no secret")));
		assertServerStillServes();
	}

	@Test
	void theRejectedCountIsExactlyTheConnectionsRefusedOrCutOffForWhatTheySent() throws Exception {
		// A connection that sends nothing is cut off at the first-frame timeout, and counted then. It is opened first,
		// so that its wait runs beside the burst of connections below rather than behind whatever the server still has
		// of it to work through.
		Socket silent = new Socket(server.address().host(), server.address().port());
		silent.setSoTimeout(30_000);
		// Peers that speak RSocket and close as they will, and connections that send nothing: none is counted.
		for (int i = 0; i < 30; i++) {
			Connection good = new RSocketTransport(settings).connect(server.address(), "good-" + i, Router.none()).block(Duration.ofSeconds(10));
			if (i % 2 == 0) {
				StepVerifier.create(Messenger.over(good, Codec.standard()).request("echo", "hi", String.class)).expectNext("hi").verifyComplete();
			}
			good.dispose();
		}
		for (int i = 0; i < 20; i++) {
			sendAndClose(new byte[0]);
		}
		// Each of these is counted once.
		int bad = 0;
		for (int i = 0; i < 20; i++, bad++) {
			// A zero-length frame.
			sendAndClose(new byte[] {0, 0, 0});
		}
		for (int i = 0; i < 20; i++, bad++) {
			// A setup frame of 100 bytes, cut off after 20.
			byte[] cut = new byte[23];
			cut[2] = 100;
			// Stream 0, then the setup frame type in the top six bits.
			cut[7] = 0x04;
			sendAndClose(cut);
		}
		for (int i = 0; i < 20; i++, bad++) {
			// A length prefix cut short.
			sendAndClose(new byte[] {0, 1});
		}
		for (int i = 0; i < 20; i++, bad++) {
			sendAndClose(setupWithMimeTypePastItsEnd());
		}
		for (int i = 0; i < 5; i++, bad++) {
			RSocket raw = rawClient(new SecretProof("another run's secret").setupFor("raw"), LIMIT);
			StepVerifier.create(raw.requestResponse(DefaultPayload.create("hi", "echo"))).expectError().verify(Duration.ofSeconds(10));
			raw.dispose();
		}
		try (silent) {
			assertClosedByServer(silent.getInputStream());
		}
		bad++;
		int expected = bad;
		await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(server.stats().rejected())
				.as("rejected: %s", rejected.stream().collect(java.util.stream.Collectors.groupingBy(r -> r.reason() + " " + r.remoteAddress().replaceAll(":[0-9]+", ""), java.util.stream.Collectors.counting()))).isEqualTo(expected));
		// Past the first-frame timeout, when a connection that had sent nothing would have been cut off, nothing more.
		await().during(Duration.ofMillis(3500)).atMost(Duration.ofSeconds(10)).until(() -> server.stats().rejected() == expected);
		assertThat(rejected).hasSize(expected);
		assertThat(server.stats().accepted()).isEqualTo(30);
		assertServerStillServes();
	}

	/**
	 * A whole setup frame of version 1.0, as RSocket writes one, whose metadata MIME type's length runs 200 bytes past
	 * the frame's end: RSocket cannot read it.
	 */
	private static byte[] setupWithMimeTypePastItsEnd() {
		java.nio.ByteBuffer frame = java.nio.ByteBuffer.allocate(3 + 4 + 2 + 4 + 4 + 4 + 1 + 4);
		int length = frame.capacity() - 3;
		frame.put((byte) (length >> 16)).put((byte) (length >> 8)).put((byte) length);
		// Stream 0; the setup frame's type in the top six bits of the flags word; version 1.0.
		frame.putInt(0).putShort((short) (0x01 << 10)).putShort((short) 1).putShort((short) 0);
		// Keep-alive interval and lifetime, then a MIME type said to be 200 bytes long, of which 4 follow.
		frame.putInt(20_000).putInt(90_000).put((byte) 200).put("text".getBytes(StandardCharsets.US_ASCII));
		return frame.array();
	}

	@Test
	void aWholeSetupFrameRSocketCannotReadIsRefusedAndCounted() throws Exception {
		try (Socket socket = new Socket(server.address().host(), server.address().port())) {
			socket.setSoTimeout(15_000);
			socket.getOutputStream().write(setupWithMimeTypePastItsEnd());
			socket.getOutputStream().flush();
			// Cut off, rather than left waiting for an answer that never comes.
			assertClosedByServer(socket.getInputStream());
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> server.stats().rejected() == 1);
		assertThat(rejected).singleElement().satisfies(refused -> assertThat(refused.reason()).contains("a setup frame RSocket cannot read"));
		assertThat(server.stats().accepted()).isZero();
		assertServerStillServes();
	}

	/** Opens a plain TCP connection to the server, writes {@code bytes} and closes it. */
	private void sendAndClose(byte[] bytes) throws Exception {
		try (Socket socket = new Socket(server.address().host(), server.address().port())) {
			socket.getOutputStream().write(bytes);
			socket.getOutputStream().flush();
		}
	}

	@Test
	void theSecretItselfInTheSetupIsNotAProofAndIsRefused() {
		RSocket raw = rawClient(SECRET.getBytes(StandardCharsets.UTF_8), LIMIT);
		StepVerifier.create(raw.requestResponse(DefaultPayload.create("hi", "echo")))
				.expectErrorMatches(e -> e instanceof RejectedSetupException && e.getMessage().contains("no proof of the secret"))
				.verify(Duration.ofSeconds(10));
		assertServerStillServes();
	}

	@Test
	void aServerThatDoesNotKnowTheSecretIsNotTalkedTo() {
		io.rsocket.transport.netty.server.CloseableChannel impostor = io.rsocket.core.RSocketServer
				.create(io.rsocket.SocketAcceptor.forRequestResponse(p -> {
					p.release();
					return Mono.just(DefaultPayload.create("sure"));
				}))
				.bind(io.rsocket.transport.netty.server.TcpServerTransport.create("127.0.0.1", 0))
				.block(Duration.ofSeconds(10));
		try {
			StepVerifier.create(new RSocketTransport(settings).connect(new Endpoint("127.0.0.1", impostor.address().getPort()),
							"client", Router.none()))
					.expectErrorMatches(e -> e instanceof io.fiberjvm.transport.ConnectionRejectedException
							&& e.getMessage().contains("does not know the run's secret"))
					.verify(Duration.ofSeconds(10));
		}
		finally {
			impostor.dispose();
		}
	}

	@Test
	void randomBytesCloseThatConnectionOnly() throws Exception {
		// What a peer sent is said once, as a refusal: no error is left unhandled for Reactor to log as dropped.
		ch.qos.logback.classic.Logger dropped = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("reactor.core.publisher.Operators");
		ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> logged = new ch.qos.logback.core.read.ListAppender<>();
		logged.start();
		dropped.addAppender(logged);
		byte[] garbage = new byte[4096];
		new Random(42).nextBytes(garbage);
		// A small length prefix, so the server reads a whole "frame" of garbage at once.
		garbage[0] = 0;
		garbage[1] = 0;
		garbage[2] = 100;
		try (Socket socket = new Socket(server.address().host(), server.address().port())) {
			socket.setSoTimeout(15_000);
			OutputStream out = socket.getOutputStream();
			out.write(garbage);
			out.flush();
			assertClosedByServer(socket.getInputStream());
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> !rejected.isEmpty());
		assertThat(rejected.get(0).remoteAddress()).contains("127.0.0.1");
		assertServerStillServes();
		dropped.detachAppender(logged);
		assertThat(logged.list).isEmpty();
	}

	@Test
	void bytesThatNeverMakeAFrameAreCutOffAfterTheFirstFrameTimeout() throws Exception {
		try (Socket socket = new Socket(server.address().host(), server.address().port())) {
			socket.setSoTimeout(15_000);
			// Announces a 1000-byte frame and never sends it.
			socket.getOutputStream().write(new byte[] {0, 3, (byte) 0xE8, 1, 2});
			socket.getOutputStream().flush();
			assertClosedByServer(socket.getInputStream());
		}
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(rejected).anyMatch(r -> r.reason().contains("no whole frame")));
		assertServerStillServes();
	}

	@Test
	void frameOverTheLimitClosesThatConnectionOnly() throws Exception {
		try (Socket socket = new Socket(server.address().host(), server.address().port())) {
			socket.setSoTimeout(15_000);
			OutputStream out = socket.getOutputStream();
			// Announces a frame of 0xFFFFFF bytes, far over the 64 KiB limit.
			out.write(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF});
			out.write(new byte[8192]);
			out.flush();
			assertClosedByServer(socket.getInputStream());
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> rejected.stream().anyMatch(r -> r.reason().contains("over the limit")));
		assertServerStillServes();
	}

	@Test
	void authenticatedPeerSendingAnOversizedFrameIsCutOff() {
		RSocket raw = rawClient(new SecretProof(SECRET).setupFor("raw"), 0xFF_FFFF);
		StepVerifier.create(raw.requestResponse(DefaultPayload.create(new byte[LIMIT * 2], "echo".getBytes(StandardCharsets.UTF_8))))
				.expectError()
				.verify(Duration.ofSeconds(15));
		await().atMost(Duration.ofSeconds(10)).until(raw::isDisposed);
		await().atMost(Duration.ofSeconds(10)).until(() -> rejected.stream().anyMatch(r -> r.reason().contains("over the limit")));
		assertServerStillServes();
	}

	@Test
	void authenticatedPeerSendingAPayloadOverThePayloadLimitInFragmentsFailsThatRequestOnly() {
		RSocket raw = RSocketConnector.create()
				.setupPayload(DefaultPayload.create(new SecretProof(SECRET).setupFor("raw"), "raw".getBytes(StandardCharsets.UTF_8)))
				.fragment(LIMIT)
				.connect(TcpClientTransport.create(reactor.netty.tcp.TcpClient.create()
						.host(server.address().host()).port(server.address().port()), LIMIT))
				.block(Duration.ofSeconds(10));
		StepVerifier.create(raw.requestResponse(DefaultPayload.create(new byte[LIMIT * 8], "echo".getBytes(StandardCharsets.UTF_8))))
				.expectError()
				.verify(Duration.ofSeconds(15));
		assertServerStillServes();
	}

	private static void assertClosedByServer(InputStream in) throws Exception {
		byte[] buffer = new byte[1024];
		try {
			// The server may answer with an error frame first; it must then close.
			while (in.read(buffer) >= 0) {
				// drain
			}
		}
		catch (java.net.SocketException reset) {
			// a reset is a close too
		}
	}
}
