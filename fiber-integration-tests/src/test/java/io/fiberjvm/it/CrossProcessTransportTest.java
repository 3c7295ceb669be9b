package io.fiberjvm.it;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.testing.ThreadDump;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Messenger;
import io.fiberjvm.transport.MeteredSubscriber;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;
import io.fiberjvm.transport.rsocket.RSocketTransport;

import static org.assertj.core.api.Assertions.assertThat;

/** The transport between two JVMs: demand as credits across the process boundary, keep-alive. */
class CrossProcessTransportTest {

	private static final String SECRET = "cross-process-secret";

	private final BlockingQueue<Connection> peers = new LinkedBlockingQueue<>();
	private TransportServer server;
	private ChildJvm child;

	@BeforeEach
	void startPeer() throws Exception {
		TransportSettings settings = new TransportSettings(SECRET, 1 << 20, 1 << 20, Duration.ofMillis(300), Duration.ofSeconds(2));
		server = new RSocketTransport(settings).bind(new Endpoint("127.0.0.1", 0), peer -> {
			peers.add(peer);
			return Router.none();
		}).block(Duration.ofSeconds(10));
		child = ChildJvm.start(EchoPeer.class, Map.of("PEER_SECRET", SECRET), server.address().toString(), "echo-peer");
		child.awaitLine("CONNECTED");
	}

	@AfterEach
	void stop() throws Exception {
		child.signal("CONT");
		child.close();
		server.dispose();
	}

	private Connection peer() throws InterruptedException {
		Connection peer = peers.poll(60, TimeUnit.SECONDS);
		assertThat(peer).as("the child connected").isNotNull();
		return peer;
	}

	@Test
	void slowConsumerInThisJvmHoldsBackTheProducerInTheOther() throws Exception {
		Connection peer = peer();
		Messenger messenger = Messenger.over(peer, Codec.standard());
		MeteredSubscriber<byte[]> slow = new MeteredSubscriber<>(10);
		peer.requestStream("firehose", new byte[0]).subscribe(slow);
		for (int round = 0; round < 10; round++) {
			slow.awaitAllRequested(Duration.ofSeconds(30));
			long produced = messenger.request("produced", "?", Long.class).block(Duration.ofSeconds(30));
			// The producer in the other JVM made exactly what this side asked for, never more.
			assertThat(produced).isEqualTo(slow.requested());
			slow.ask(7);
		}
		slow.dispose();
	}

	@Test
	void aPeerThatStopsAnsweringIsNoticedByKeepAlive() throws Exception {
		Connection peer = peer();
		StepVerifier.create(Messenger.over(peer, Codec.standard()).request("produced", "?", Long.class))
				.expectNext(0L)
				.verifyComplete();
		// A stopped process keeps its socket open; only missing keep-alives can reveal it.
		child.signal("STOP");
		try {
			StepVerifier.create(peer.onClose()).expectComplete().verify(Duration.ofSeconds(30));
		}
		catch (AssertionError notClosed) {
			// Reactor's parallel workers tick the keep-alive watch: their stacks say what held it up.
			throw new AssertionError(notClosed.getMessage() + "; this JVM's threads:\n" + ThreadDump.all(), notClosed);
		}
		assertThat(peer.isDisposed()).isTrue();
	}
}
