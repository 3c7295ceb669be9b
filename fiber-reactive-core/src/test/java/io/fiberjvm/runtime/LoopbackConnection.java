package io.fiberjvm.runtime;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;
import io.fiberjvm.transport.Router;

/** A connection whose peer is a {@link Router} in this process: requests reach it directly, demand included. */
public final class LoopbackConnection implements Connection {

	private final Router peer;
	private final Sinks.Empty<Void> closed = Sinks.empty();
	private volatile boolean disposed;

	public LoopbackConnection(Router peer) {
		this.peer = peer;
	}

	@Override
	public String peerName() {
		return "loopback";
	}

	@Override
	public Mono<byte[]> requestResponse(String route, byte[] data) {
		return peer.requestResponse(route, data);
	}

	@Override
	public Flux<byte[]> requestStream(String route, byte[] data) {
		return peer.requestStream(route, data);
	}

	@Override
	public <T> Flux<T> requestChannel(String route, Publisher<? extends Outbound> data, InboundReader<T> reader) {
		return peer.requestChannel(route, Flux.from(data).map(Outbound::toArray)).map(datum -> InboundReader.read(reader, datum));
	}

	@Override
	public Mono<Void> fireAndForget(String route, byte[] data) {
		return peer.fireAndForget(route, data);
	}

	@Override
	public Mono<Void> onClose() {
		return closed.asMono();
	}

	@Override
	public void dispose() {
		disposed = true;
		closed.tryEmitEmpty();
	}

	@Override
	public boolean isDisposed() {
		return disposed;
	}
}
