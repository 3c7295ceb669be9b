package io.fiberjvm.transport;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Answers requests that arrive on a connection, by route, in RSocket's four interaction models.
 *
 * <p>An error signal from a handler travels to the requester as a {@link io.fiberjvm.RemoteException}
 * with the handler's exception type, message and stack trace. Demand is the requester's: a
 * stream handler's publisher is only asked for as many items as the remote subscriber requested.
 * {@link Routes} is the implementation most code wants.
 */
public interface Router {

	/** One request, one response. */
	Mono<byte[]> requestResponse(String route, byte[] data);

	/** One request, a stream of responses. */
	Flux<byte[]> requestStream(String route, byte[] data);

	/** A stream each way, the data as arrays. */
	Flux<byte[]> requestChannel(String route, Publisher<byte[]> data);

	/**
	 * The handler of a request-channel on {@code route}, which a transport asks for once the channel's first frame
	 * names its route: by default {@link #requestChannel} with each datum as an array.
	 */
	default ChannelHandler<?> channel(String route) {
		return ChannelHandler.of(InboundReader.bytes(), data -> requestChannel(route, data));
	}

	/** One request, no response; the returned Mono only says when the handler is done. */
	Mono<Void> fireAndForget(String route, byte[] data);

	/** A router that knows no route. */
	static Router none() {
		return Routes.empty();
	}
}
