package io.fiberjvm.testkit;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.subscriber.TestSubscriber;

import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.Codec;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.ConnectionRejectedException;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.FrameTooLargeException;
import io.fiberjvm.transport.InboundAssembly;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Messenger;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.RejectedConnection;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.Transport;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;
import io.fiberjvm.transport.UnknownRouteException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link Transport} must do. An implementation's test implements this interface and
 * supplies {@link #transport(TransportSettings)}; every default method here runs against it.
 */
public interface TransportContract {

	/** A transport whose connections use {@code settings}. */
	Transport transport(TransportSettings settings);

	/** Servers and connections a test opened; closed after each test. */
	List<Runnable> CLEANUP = new CopyOnWriteArrayList<>();

	default TransportSettings settings() {
		return new TransportSettings("contract-secret", 64 * 1024, 4 << 20, Duration.ofMillis(500), Duration.ofSeconds(5));
	}

	/** The host servers bind to. */
	default String host() {
		return "127.0.0.1";
	}

	default TransportServer serve(Router router) {
		TransportServer server = transport(settings()).bind(new Endpoint(host(), 0), peer -> router).block(Duration.ofSeconds(10));
		CLEANUP.add(server::dispose);
		return server;
	}

	default Connection connect(TransportServer server, String name) {
		Connection c = transport(settings()).connect(server.address(), name, Router.none()).block(Duration.ofSeconds(10));
		CLEANUP.add(c::dispose);
		return c;
	}

	record Point(int x, int y) implements java.io.Serializable {
	}

	default Routes echoRoutes() {
		return Routes.empty()
				.withResponse("echo", Point.class, p -> Mono.just(new Point(p.y(), p.x())))
				.withStream("count", Integer.class, n -> Flux.range(0, n))
				.withChannel("double", Integer.class, in -> in.map(i -> i * 2))
				.withResponse("boom", String.class, s -> Mono.error(new IllegalStateException("boom: " + s)));
	}

	@AfterEach
	default void closeEverything() {
		List<Runnable> all = new ArrayList<>(CLEANUP);
		CLEANUP.clear();
		all.forEach(Runnable::run);
	}

	@Test
	default void requestResponseCarriesTypedValues() {
		Messenger m = Messenger.over(connect(serve(echoRoutes()), "client"), Codec.standard());
		StepVerifier.create(m.request("echo", new Point(1, 2), Point.class))
				.expectNext(new Point(2, 1))
				.verifyComplete();
	}

	@Test
	default void requestStreamAndChannelCarryEveryItemInOrder() {
		Messenger m = Messenger.over(connect(serve(echoRoutes()), "client"), Codec.standard());
		StepVerifier.create(m.stream("count", 100, Integer.class))
				.expectNextSequence(java.util.stream.IntStream.range(0, 100).boxed().toList())
				.verifyComplete();
		StepVerifier.create(m.channel("double", Flux.range(1, 50), Integer.class))
				.expectNextSequence(java.util.stream.IntStream.rangeClosed(1, 50).map(i -> i * 2).boxed().toList())
				.verifyComplete();
		StepVerifier.create(m.channel("double", Flux.empty(), Integer.class)).verifyComplete();
	}

	@Test
	default void fireAndForgetReachesTheHandler() {
		AtomicInteger seen = new AtomicInteger();
		Routes routes = Routes.empty().withFireAndForget("note", Integer.class, i -> Mono.fromRunnable(() -> seen.addAndGet(i)));
		Messenger m = Messenger.over(connect(serve(routes), "client"), Codec.standard());
		StepVerifier.create(m.fire("note", 5).then(m.fire("note", 7))).verifyComplete();
		await().atMost(Duration.ofSeconds(10)).until(() -> seen.get() == 12);
	}

	@Test
	default void handlerErrorArrivesWithRemoteTypeMessageAndTrace() {
		Messenger m = Messenger.over(connect(serve(echoRoutes()), "client"), Codec.standard());
		StepVerifier.create(m.request("boom", "x", String.class))
				.expectErrorSatisfies(e -> {
					assertThat(e).isInstanceOf(RemoteException.class);
					RemoteException r = (RemoteException) e;
					assertThat(r.remoteType()).isEqualTo(IllegalStateException.class.getName());
					assertThat(r.remoteMessage()).isEqualTo("boom: x");
					assertThat(r.getStackTrace()).isNotEmpty();
					assertThat(r.getStackTrace()[0].getClassName()).isNotEqualTo(RemoteException.class.getName());
				})
				.verify(Duration.ofSeconds(10));
	}

	@Test
	default void anErrorTooLargeForAFrameArrivesCutAndTheConnectionGoesOn() {
		String huge = "x".repeat(settings().maxFrameSize() * 2);
		Routes routes = echoRoutes().withResponse("huge-error", String.class, s -> Mono.error(new IllegalStateException(huge)));
		Messenger m = Messenger.over(connect(serve(routes), "client"), Codec.standard());
		StepVerifier.create(m.request("huge-error", "x", String.class))
				.expectErrorSatisfies(e -> {
					assertThat(((RemoteException) e).remoteType()).isEqualTo(IllegalStateException.class.getName());
					assertThat(((RemoteException) e).remoteMessage()).endsWith("(cut)");
				})
				.verify(Duration.ofSeconds(10));
		StepVerifier.create(m.request("echo", new Point(1, 2), Point.class)).expectNext(new Point(2, 1)).verifyComplete();
	}

	@Test
	default void unknownRouteIsAClearErrorAndTheConnectionGoesOn() {
		Connection c = connect(serve(echoRoutes()), "client");
		Messenger m = Messenger.over(c, Codec.standard());
		StepVerifier.create(m.request("no-such-route", 1, Integer.class))
				.expectErrorSatisfies(e -> {
					assertThat(((RemoteException) e).remoteType()).isEqualTo(UnknownRouteException.class.getName());
					assertThat(e.getMessage()).contains("'no-such-route'").contains("echo");
				})
				.verify(Duration.ofSeconds(10));
		StepVerifier.create(m.stream("nowhere", 1, Integer.class))
				.expectErrorMatches(e -> e.getMessage().contains("unknown request-stream route 'nowhere'"))
				.verify(Duration.ofSeconds(10));
		StepVerifier.create(m.request("echo", new Point(3, 4), Point.class)).expectNext(new Point(4, 3)).verifyComplete();
	}

	@Test
	default void undecodablePayloadIsAClearErrorAndTheConnectionGoesOn() {
		Connection c = connect(serve(echoRoutes()), "client");
		StepVerifier.create(c.requestResponse("echo", new byte[] {1, 2, 3, 4, 5}))
				.expectErrorSatisfies(e -> {
					assertThat(((RemoteException) e).remoteType()).isEqualTo("io.fiberjvm.codec.CodecException");
					assertThat(e.getMessage()).contains("route 'echo'").contains("Point");
				})
				.verify(Duration.ofSeconds(10));
		Messenger m = Messenger.over(c, Codec.standard());
		StepVerifier.create(m.request("echo", new Point(5, 6), Point.class)).expectNext(new Point(6, 5)).verifyComplete();
	}

	@Test
	default void responseOfTheWrongTypeIsAClearErrorOnTheCaller() {
		Messenger m = Messenger.over(connect(serve(echoRoutes()), "client"), Codec.standard());
		StepVerifier.create(m.request("echo", new Point(1, 2), Integer.class))
				.expectErrorMatches(e -> e.getMessage().contains("route 'echo'") && e.getMessage().contains("Integer"))
				.verify(Duration.ofSeconds(10));
	}

	@Test
	default void wrongSecretIsRefusedAndTheServerGoesOnServing() {
		TransportServer server = serve(echoRoutes());
		List<RejectedConnection> rejected = new CopyOnWriteArrayList<>();
		server.rejections().subscribe(rejected::add);
		StepVerifier.create(transport(settings().withSecret("not-the-secret")).connect(server.address(), "intruder", Router.none()))
				.expectErrorSatisfies(e -> {
					assertThat(e).isInstanceOf(ConnectionRejectedException.class);
					assertThat(e.getMessage()).contains("wrong secret");
				})
				.verify(Duration.ofSeconds(10));
		await().atMost(Duration.ofSeconds(10)).until(() -> rejected.stream().anyMatch(r -> r.reason().contains("wrong secret")));
		Messenger m = Messenger.over(connect(server, "client"), Codec.standard());
		StepVerifier.create(m.request("echo", new Point(7, 8), Point.class)).expectNext(new Point(8, 7)).verifyComplete();
	}

	@Test
	default void refusingAcceptorReachesThePeerWithItsReason() {
		TransportServer server = transport(settings()).bind(new Endpoint(host(), 0), peer -> {
			throw new IllegalArgumentException("peer " + peer.peerName() + " is not expected");
		}).block(Duration.ofSeconds(10));
		CLEANUP.add(server::dispose);
		StepVerifier.create(transport(settings()).connect(server.address(), "stranger", Router.none()))
				.expectErrorMatches(e -> e instanceof ConnectionRejectedException && e.getMessage().contains("stranger is not expected"))
				.verify(Duration.ofSeconds(10));
	}

	@Test
	default void payloadsLargerThanAFrameTravelWholeEveryWay() {
		byte[] big = new byte[settings().maxFrameSize() * 5 + 17];
		new java.util.Random(7).nextBytes(big);
		Routes routes = Routes.empty()
				.withResponse("echo", Mono::just)
				.withStream("twice", bytes -> Flux.just(bytes, bytes))
				.withChannel("sizes", in -> in.map(bytes -> Integer.toString(bytes.length).getBytes(StandardCharsets.UTF_8)));
		Connection c = connect(serve(routes), "client");
		StepVerifier.create(c.requestResponse("echo", big)).assertNext(back -> assertThat(back).isEqualTo(big)).verifyComplete();
		StepVerifier.create(c.requestStream("twice", big)).assertNext(back -> assertThat(back).isEqualTo(big))
				.assertNext(back -> assertThat(back).isEqualTo(big)).verifyComplete();
		StepVerifier.create(c.requestChannel("sizes", Flux.just(big, new byte[3], big).map(Outbound::of)).map(b -> new String(b, StandardCharsets.UTF_8)))
				.expectNext(Integer.toString(big.length), "3", Integer.toString(big.length)).verifyComplete();
	}

	@Test
	default void channelReadersOnBothSidesGetEachDatumsBytesInOrder() {
		// A reader that sums what it is given, checking each run is read-only and its datum's size is kept.
		InboundReader<Long> sums = size -> new InboundAssembly<>() {
			private long sum;
			private int taken;

			@Override
			public void take(java.nio.ByteBuffer bytes) {
				assertThat(bytes.isReadOnly()).isTrue();
				while (bytes.hasRemaining()) {
					sum = sum * 31 + bytes.get();
					taken++;
				}
			}

			@Override
			public Long end() {
				assertThat(taken).isEqualTo(size);
				return sum;
			}
		};
		byte[] big = new byte[settings().maxPayloadSize() / 2];
		new java.util.Random(11).nextBytes(big);
		byte[] small = {1, 2, 3};
		Routes routes = Routes.empty()
				.withChannel("sums", sums, in -> in.map(sum -> Long.toString(sum).getBytes(StandardCharsets.UTF_8)))
				.withChannel("echo", in -> in);
		Connection c = connect(serve(routes), "client");
		long bigSum = InboundReader.read(sums, big);
		StepVerifier.create(c.requestChannel("sums", Flux.just(big, new byte[0], small).map(Outbound::of)).map(b -> new String(b, StandardCharsets.UTF_8)))
				.expectNext(Long.toString(bigSum), "0", Long.toString(InboundReader.read(sums, small)))
				.verifyComplete();
		StepVerifier.create(c.requestChannel("echo", Flux.just(small, big).map(Outbound::of), sums))
				.expectNext(InboundReader.read(sums, small), bigSum)
				.verifyComplete();
	}

	@Test
	default void payloadOverThePayloadLimitIsNotSentAndTheConnectionGoesOn() {
		Connection c = connect(serve(echoRoutes()), "client");
		StepVerifier.create(c.requestResponse("echo", new byte[settings().maxPayloadSize()]))
				.expectErrorMatches(e -> e instanceof FrameTooLargeException && e.getMessage().contains("max-value-size"))
				.verify(Duration.ofSeconds(10));
		Messenger m = Messenger.over(c, Codec.standard());
		StepVerifier.create(m.request("echo", new Point(1, 1), Point.class)).expectNext(new Point(1, 1)).verifyComplete();
	}

	@Test
	default void serverCanCallThePeerBack() {
		Routes clientSide = Routes.empty().withResponse("whoami", String.class, s -> Mono.just("client answering " + s));
		List<Connection> peers = new CopyOnWriteArrayList<>();
		TransportServer server = transport(settings()).bind(new Endpoint(host(), 0), peer -> {
			peers.add(peer);
			return Router.none();
		}).block(Duration.ofSeconds(10));
		CLEANUP.add(server::dispose);
		Connection c = transport(settings()).connect(server.address(), "callee", clientSide).block(Duration.ofSeconds(10));
		CLEANUP.add(c::dispose);
		assertThat(peers).hasSize(1);
		assertThat(peers.get(0).peerName()).isEqualTo("callee");
		StepVerifier.create(Messenger.over(peers.get(0), Codec.standard()).request("whoami", "server", String.class))
				.expectNext("client answering server")
				.verifyComplete();
	}

	@Test
	default void demandCrossesAsCreditsSoASlowConsumerNeverHasMoreInFlightThanItAsked() {
		AtomicLong produced = new AtomicLong();
		Routes routes = Routes.empty().withStream("firehose", bytes -> Flux.range(0, 1_000_000)
				.map(i -> new byte[] {(byte) i.intValue()})
				.doOnNext(b -> produced.incrementAndGet()));
		Connection c = connect(serve(routes), "slow");
		AtomicLong requested = new AtomicLong(5);
		TestSubscriber<byte[]> slow = TestSubscriber.<byte[]>builder().initialRequest(requested.get()).build();
		c.requestStream("firehose", new byte[0]).subscribe(slow);
		for (int round = 0; round < 20; round++) {
			long asked = requested.get();
			await().atMost(Duration.ofSeconds(10)).until(() -> slow.getReceivedOnNext().size() == asked);
			// The producer may only have made what was asked for, never more.
			assertThat(produced.get()).isLessThanOrEqualTo(asked);
			requested.addAndGet(3);
			slow.request(3);
		}
		await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> produced.get() <= requested.get());
		assertThat(produced.get()).isEqualTo(requested.get());
		slow.cancel();
	}

	@Test
	default void closingTheServerClosesItsConnections() {
		TransportServer server = serve(echoRoutes());
		Connection c = connect(server, "client");
		server.dispose();
		StepVerifier.create(c.onClose()).expectComplete().verify(Duration.ofSeconds(15));
		assertThat(c.isDisposed()).isTrue();
	}

	@Test
	default void connectionsAndServersCloseAsEverythingThatClosesOnceDoes() {
		TransportServer server = serve(echoRoutes());
		Connection c = connect(server, "closing");
		assertThat(c.isDisposed()).isFalse();
		// closeAsync is lazy: nothing closes until it is subscribed.
		reactor.core.publisher.Mono<Void> closing = c.closeAsync();
		assertThat(c.isDisposed()).isFalse();
		StepVerifier.create(closing).expectComplete().verify(Duration.ofSeconds(15));
		assertThat(c.isDisposed()).isTrue();
		StepVerifier.create(c.onClose()).expectComplete().verify(Duration.ofSeconds(15));
		StepVerifier.create(Messenger.over(c, io.fiberjvm.codec.Codec.standard()).request("echo", new Point(1, 2), Point.class))
				.expectError().verify(Duration.ofSeconds(15));
		Connection other = connect(server, "closed");
		server.close();
		assertThat(server.isDisposed()).isTrue();
		StepVerifier.create(other.onClose()).expectComplete().verify(Duration.ofSeconds(15));
	}
}
