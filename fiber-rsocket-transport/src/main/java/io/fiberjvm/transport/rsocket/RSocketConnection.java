package io.fiberjvm.transport.rsocket;

import java.util.Objects;

import io.rsocket.RSocket;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

/** A {@link Connection} over one RSocket: routes travel as the payload metadata. */
final class RSocketConnection implements Connection {

	private final RSocket socket;
	private final String peerName;
	private final int maxPayloadSize;

	RSocketConnection(RSocket socket, String peerName, int maxPayloadSize) {
		this.socket = Objects.requireNonNull(socket, "socket");
		this.peerName = peerName;
		this.maxPayloadSize = maxPayloadSize;
	}

	@Override
	public String peerName() {
		return peerName;
	}

	@Override
	public Mono<byte[]> requestResponse(String route, byte[] data) {
		return Mono.defer(() -> socket.requestResponse(Frames.payload(route, data, maxPayloadSize)))
				.map(Frames::bytes)
				.onErrorMap(e -> Frames.fromWire(e, peerName, route));
	}

	@Override
	public Flux<byte[]> requestStream(String route, byte[] data) {
		return Parts.join(Flux.defer(() -> socket.requestStream(Frames.payload(route, data, maxPayloadSize))),
				InboundReader.bytes(), maxPayloadSize)
				.onErrorMap(e -> Frames.fromWire(e, peerName, route));
	}

	@Override
	public <T> Flux<T> requestChannel(String route, Publisher<? extends Outbound> data, InboundReader<T> reader) {
		Objects.requireNonNull(reader, "reader");
		// The first frame names the route and carries no data, so an empty input still opens the channel.
		Flux<io.rsocket.Payload> frames = Flux.concat(Mono.fromCallable(() -> Frames.routeOnly(route)),
				Parts.out(data, route, maxPayloadSize));
		return Parts.join(Flux.defer(() -> socket.requestChannel(frames)), reader, maxPayloadSize)
				.onErrorMap(e -> Frames.fromWire(e, peerName, route));
	}

	/** The first datum goes in the frame that opens the channel, unless it is too large to go in one payload. */
	@Override
	public <T> Flux<T> requestChannel(String route, Outbound first, Publisher<? extends Outbound> rest, InboundReader<T> reader) {
		Objects.requireNonNull(first, "first");
		Objects.requireNonNull(reader, "reader");
		if (first.size() > Parts.PART) {
			return requestChannel(route, Flux.concat(Mono.just(first), rest), reader);
		}
		Flux<io.rsocket.Payload> frames = Flux.concat(Mono.fromCallable(() -> Frames.routeWith(route, first, maxPayloadSize)),
				Parts.out(rest, route, maxPayloadSize));
		return Parts.join(Flux.defer(() -> socket.requestChannel(frames)), reader, maxPayloadSize)
				.onErrorMap(e -> Frames.fromWire(e, peerName, route));
	}

	@Override
	public Mono<Void> fireAndForget(String route, byte[] data) {
		return Mono.defer(() -> socket.fireAndForget(Frames.payload(route, data, maxPayloadSize)))
				.onErrorMap(e -> Frames.fromWire(e, peerName, route));
	}

	@Override
	public Mono<Void> onClose() {
		return socket.onClose().onErrorResume(e -> Mono.empty());
	}

	@Override
	public void dispose() {
		socket.dispose();
	}

	@Override
	public boolean isDisposed() {
		return socket.isDisposed();
	}

	@Override
	public String toString() {
		return "RSocketConnection[" + peerName + "]";
	}
}
