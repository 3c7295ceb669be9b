package io.fiberjvm.transport.rsocket;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCounted;
import io.rsocket.Payload;
import io.rsocket.util.ByteBufPayload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Operators;
import reactor.core.publisher.Sinks;
import reactor.test.publisher.TestPublisher;
import reactor.util.context.Context;

import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Routes;

import static org.assertj.core.api.Assertions.assertThat;

/** A channel's frames are released exactly once, whatever its handler or its receiver does. */
@Timeout(60)
class ChannelReleaseTest {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final List<Throwable> secondReleases = new CopyOnWriteArrayList<>();

	/** A discard hook that releases what is discarded, as RSocket's responder puts in a channel's context, telling failures. */
	private final Context releasingDiscards = Operators.enableOnDiscard(null, discarded -> {
		if (discarded instanceof ReferenceCounted counted) {
			try {
				counted.release();
			}
			catch (RuntimeException e) {
				secondReleases.add(e);
			}
		}
	});

	private static Payload routeFrame(String route) {
		return ByteBufPayload.create(Unpooled.EMPTY_BUFFER, Unpooled.copiedBuffer(route, StandardCharsets.UTF_8));
	}

	@Test
	void aChannelsRouteFrameIsReleasedOnceWhetherItsHandlerReadsTheDataOrNot() {
		Routes routes = Routes.empty().withChannel("echo", data -> data);
		RouterResponder responder = new RouterResponder(routes, 1 << 24, 1 << 26, new SecretProof("secret"));
		for (String route : List.of("echo", "nowhere")) {
			Payload head = routeFrame(route);
			Payload data = ByteBufPayload.create(Unpooled.buffer(1).writeByte(7));
			Sinks.Many<Payload> in = Sinks.many().unicast().onBackpressureBuffer();
			in.tryEmitNext(head);
			in.tryEmitNext(data);
			in.tryEmitComplete();
			// The echo answers with its datum and completes; the unknown route fails. Either way the channel ends.
			responder.requestChannel(in.asFlux()).doOnNext(Payload::release).onErrorResume(e -> Flux.empty())
					.contextWrite(releasingDiscards).blockLast(WAIT);
			assertThat(head.refCnt()).as("the route frame of '%s'", route).isZero();
			assertThat(secondReleases).as("releases of a released frame, route '%s'", route).isEmpty();
		}
	}

	@Test
	void aFirstDatumThatCameWithTheRouteIsReleasedOnceWhetherItsHandlerReadsItOrNot() {
		Routes routes = Routes.empty().withChannel("echo", data -> data).withChannel("ignore", data -> Flux.empty());
		RouterResponder responder = new RouterResponder(routes, 1 << 24, 1 << 26, new SecretProof("secret"));
		for (String route : List.of("echo", "ignore", "nowhere")) {
			io.netty.buffer.ByteBuf datum = Unpooled.buffer(1).writeByte(7);
			Payload head = ByteBufPayload.create(datum, Unpooled.buffer().writeByte(Frames.WITH_DATUM)
					.writeBytes(route.getBytes(StandardCharsets.UTF_8)));
			Sinks.Many<Payload> in = Sinks.many().unicast().onBackpressureBuffer();
			in.tryEmitNext(head);
			in.tryEmitComplete();
			List<byte[]> answers = responder.requestChannel(in.asFlux()).map(Frames::bytes).onErrorResume(e -> Flux.empty())
					.contextWrite(releasingDiscards).collectList().block(WAIT);
			assertThat(answers).as("what '%s' answered", route).hasSize(route.equals("echo") ? 1 : 0);
			if (route.equals("echo")) {
				assertThat(answers.get(0)).as("the first datum, read where it came").containsExactly(7);
			}
			assertThat(head.refCnt()).as("the opening frame of '%s'", route).isZero();
			assertThat(datum.refCnt()).as("the first datum of '%s'", route).isZero();
			assertThat(secondReleases).as("releases of a released frame, route '%s'", route).isEmpty();
		}
	}

	@Test
	void aFirstDatumIsReleasedWhenTheRouterThrowsAndAHandlerThatStopsEarlyCancelsTheRequester() {
		io.fiberjvm.transport.Router throwing = new io.fiberjvm.transport.Router() {
			@Override
			public reactor.core.publisher.Mono<byte[]> requestResponse(String route, byte[] data) {
				return reactor.core.publisher.Mono.empty();
			}

			@Override
			public Flux<byte[]> requestStream(String route, byte[] data) {
				return Flux.empty();
			}

			@Override
			public Flux<byte[]> requestChannel(String route, org.reactivestreams.Publisher<byte[]> data) {
				return Flux.empty();
			}

			@Override
			public io.fiberjvm.transport.ChannelHandler<?> channel(String route) {
				throw new IllegalStateException("no handler for " + route);
			}

			@Override
			public reactor.core.publisher.Mono<Void> fireAndForget(String route, byte[] data) {
				return reactor.core.publisher.Mono.empty();
			}
		};
		io.netty.buffer.ByteBuf datum = Unpooled.buffer(1).writeByte(7);
		Sinks.Many<Payload> in = Sinks.many().unicast().onBackpressureBuffer();
		in.tryEmitNext(ByteBufPayload.create(datum, Unpooled.buffer().writeByte(Frames.WITH_DATUM).writeBytes("x".getBytes(StandardCharsets.UTF_8))));
		in.tryEmitComplete();
		RouterResponder failing = new RouterResponder(throwing, 1 << 24, 1 << 26, new SecretProof("secret"));
		reactor.test.StepVerifier.create(failing.requestChannel(in.asFlux()).contextWrite(releasingDiscards))
				.expectErrorSatisfies(e -> assertThat(e.getMessage()).contains("no handler for x"))
				.verify(WAIT);
		assertThat(datum.refCnt()).as("the first datum of a channel whose router threw").isZero();

		// The handler takes the first datum and stops: the requester's rest is cancelled, not left open.
		RouterResponder responder = new RouterResponder(Routes.empty().withChannel("first", data -> data.take(1)), 1 << 24, 1 << 26,
				new SecretProof("secret"));
		TestPublisher<Payload> requester = TestPublisher.create();
		reactor.test.StepVerifier.create(responder.requestChannel(requester.flux()).map(Frames::bytes).contextWrite(releasingDiscards))
				.then(() -> requester.next(ByteBufPayload.create(Unpooled.buffer(1).writeByte(9), Unpooled.buffer().writeByte(Frames.WITH_DATUM)
						.writeBytes("first".getBytes(StandardCharsets.UTF_8)))))
				.assertNext(answer -> assertThat(answer).containsExactly(9))
				.expectComplete()
				.verify(WAIT);
		requester.assertCancelled();
		assertThat(secondReleases).isEmpty();
	}

	@Test
	void aPartInFlightWhenTheReceiverCancelsIsReleasedAndNothingMoreIsSignalled() {
		byte[] data = new byte[Parts.PART + 10];
		TestPublisher<Payload> sender = TestPublisher.createNoncompliant(TestPublisher.Violation.DEFER_CANCELLATION);
		List<Object> signals = new CopyOnWriteArrayList<>();
		Subscription[] subscription = new Subscription[1];
		Parts.join(sender.flux(), InboundReader.bytes(), 64 << 20).subscribe(new CoreSubscriber<byte[]>() {
			@Override
			public void onSubscribe(Subscription s) {
				subscription[0] = s;
				s.request(1);
			}

			@Override
			public void onNext(byte[] datum) {
				signals.add(datum.length);
			}

			@Override
			public void onError(Throwable e) {
				signals.add(e);
			}

			@Override
			public void onComplete() {
				signals.add("complete");
			}
		});
		sender.next(Parts.payload(data, 0, () -> { }));
		subscription[0].cancel();
		Payload inFlight = Parts.payload(data, 1, () -> { });
		sender.next(inFlight);
		sender.error(new IllegalStateException("the stream ended after the cancel"));
		assertThat(inFlight.refCnt()).isZero();
		assertThat(signals).isEmpty();
	}
}
