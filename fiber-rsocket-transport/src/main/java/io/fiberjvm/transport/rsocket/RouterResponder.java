package io.fiberjvm.transport.rsocket;

import java.util.Objects;

import io.rsocket.Payload;
import io.rsocket.RSocket;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.transport.ChannelHandler;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.Router;

/** Answers RSocket requests with a {@link Router}: the route is the metadata, errors travel encoded. */
final class RouterResponder implements RSocket {

	/** Answered by every responder itself: a client's proof that the server accepted its setup. */
	static final String HELLO = "fiber.hello";

	private static final Logger log = LoggerFactory.getLogger(RouterResponder.class);

	private final Router router;
	private final int maxFrameSize;
	private final int maxPayloadSize;
	private final SecretProof proof;

	RouterResponder(Router router, int maxFrameSize, int maxPayloadSize, SecretProof proof) {
		this.router = router;
		this.maxFrameSize = maxFrameSize;
		this.maxPayloadSize = maxPayloadSize;
		this.proof = proof;
	}

	@Override
	public Mono<Payload> requestResponse(Payload payload) {
		String route = Frames.route(payload);
		if (route.equals(HELLO)) {
			return Mono.just(Frames.data(proof.helloAnswer(Frames.bytes(payload)), route, maxPayloadSize));
		}
		return router.requestResponse(route, Frames.bytes(payload))
				.map(bytes -> Frames.data(bytes, route, maxPayloadSize))
				.onErrorMap(this::toWire);
	}

	@Override
	public Flux<Payload> requestStream(Payload payload) {
		String route = Frames.route(payload);
		return Parts.out(Flux.from(router.requestStream(route, Frames.bytes(payload))).map(Outbound::of), route, maxPayloadSize)
				.onErrorMap(this::toWire);
	}

	@Override
	public Flux<Payload> requestChannel(Publisher<Payload> payloads) {
		// The first frame names the route, and may carry the first datum: it is read and released before anything
		// holds it, so what switchOnFirst keeps is its route and that datum. The data the handler reads are the
		// channel's own frames, the opening one standing for its datum, so a handler that stops reading cancels the
		// requester; the datum is released when the channel ends if the handler never read it, or when the opening
		// frame is dropped before the channel starts.
		return Flux.defer(() -> {
			boolean[] routed = {false};
			return Flux.from(payloads).<Object>map(payload -> {
				if (routed[0]) {
					return payload;
				}
				routed[0] = true;
				return ChannelOpening.of(payload);
			});
		}).switchOnFirst((first, all) -> {
			if (!first.hasValue()) {
				return all.then(Mono.empty());
			}
			ChannelOpening opening = (ChannelOpening) Objects.requireNonNull(first.get(), "a channel's first frame");
			Flux<Payload> data = all.handle((frame, sink) -> {
				if (frame instanceof ChannelOpening carried) {
					Payload datum = carried.take();
					if (datum != null) {
						sink.next(datum);
					}
				}
				else {
					sink.next((Payload) frame);
				}
			});
			// Deferred, so a router or handler that throws fails the channel, and the datum is still released.
			return Flux.defer(() -> Parts.out(answer(router.channel(opening.route()), data), opening.route(), maxPayloadSize))
					.onErrorMap(this::toWire)
					.doFinally(signal -> opening.release());
		}, false).doOnDiscard(ChannelOpening.class, ChannelOpening::release);
	}

	/** The answers of {@code handler} to the channel's data, each datum read by its reader and released as it arrives. */
	private <T> Flux<Outbound> answer(ChannelHandler<T> handler, Flux<Payload> data) {
		return Flux.from(handler.answerOutbound(Parts.join(data, handler.reader(), maxPayloadSize)));
	}

	@Override
	public Mono<Void> fireAndForget(Payload payload) {
		String route = Frames.route(payload);
		// Nobody hears a fire-and-forget error but this side: say it here.
		return router.fireAndForget(route, Frames.bytes(payload))
				.doOnError(e -> log.warn("fire-and-forget on route '{}' failed: {}", route, e.toString()))
				.onErrorMap(this::toWire);
	}

	private Throwable toWire(Throwable error) {
		return Frames.toWire(error, maxFrameSize);
	}
}
