package io.fiberjvm.transport;

import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.AsyncCloseable;

/**
 * One authenticated connection to a peer, over which this side sends requests by route.
 *
 * <p>A connection is symmetric: the peer may send requests too, which this side's {@link Router}
 * answers. Demand is carried across: a subscriber's {@code request(n)} on a stream reaches the
 * remote publisher as credits, so a slow subscriber slows the remote producer. Requests on a
 * closed connection fail; {@link #onClose()} completes when the connection ends for any reason,
 * including a peer that stopped answering keep-alives.
 */
public interface Connection extends AsyncCloseable, Disposable {

	/** The name the peer gave at setup (a job id for a child), or the server's name for a client. */
	String peerName();

	/** One request, one response. */
	Mono<byte[]> requestResponse(String route, byte[] data);

	/** One request, a stream of responses, paced by this side's demand. */
	Flux<byte[]> requestStream(String route, byte[] data);

	/**
	 * A stream each way, each paced by its receiver's demand. The data sent is written by the transport into
	 * memory of its own ({@link Outbound}); an array goes as {@link Outbound#of(byte[])}.
	 */
	default Flux<byte[]> requestChannel(String route, Publisher<? extends Outbound> data) {
		return requestChannel(route, data, InboundReader.bytes());
	}

	/**
	 * A stream each way, as {@link #requestChannel(String, Publisher)}, each datum received read by {@code reader}
	 * from where the transport received it.
	 */
	<T> Flux<T> requestChannel(String route, Publisher<? extends Outbound> data, InboundReader<T> reader);

	/**
	 * A stream each way, as {@link #requestChannel(String, Publisher, InboundReader)} of {@code first} and then
	 * {@code rest}; a transport that can sends {@code first} with the request that opens the channel, so the peer
	 * reads it without waiting to be asked for it: a round trip less for a channel that carries one request and a
	 * large answer, or one large datum.
	 */
	default <T> Flux<T> requestChannel(String route, Outbound first, Publisher<? extends Outbound> rest, InboundReader<T> reader) {
		java.util.Objects.requireNonNull(first, "first");
		return requestChannel(route, Flux.concat(Mono.just(first), rest), reader);
	}

	/** One request, no response; completes once the request is written. */
	Mono<Void> fireAndForget(String route, byte[] data);

	/** Completes when the connection is closed, by either side or by a missed keep-alive; it never fails. */
	@Override
	Mono<Void> onClose();

	/** Closes the connection when subscribed; pending requests fail. Completes once it is closed. */
	@Override
	default Mono<Void> closeAsync() {
		return Mono.defer(() -> {
			dispose();
			return onClose();
		});
	}

	/** Closes the connection and returns at once; pending requests fail. */
	@Override
	void dispose();

	/** Whether {@link #dispose()} was called or the connection was lost. */
	@Override
	boolean isDisposed();
}
