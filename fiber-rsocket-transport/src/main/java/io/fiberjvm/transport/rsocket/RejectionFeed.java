package io.fiberjvm.transport.rsocket;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import io.fiberjvm.transport.RejectedConnection;

/**
 * A server's refused connections, as a hot feed: each refusal is logged and sent to every current subscriber.
 *
 * <p>Connections close on several event loops at once, and a sink refuses an emission that overlaps another, so
 * every refusal is emitted under the feed's lock: none is lost.
 */
final class RejectionFeed {

	private static final Logger log = LoggerFactory.getLogger(RejectionFeed.class);

	private final Sinks.Many<RejectedConnection> sink = Sinks.many().multicast().directBestEffort();

	/** Logs and emits that the peer at {@code address} was refused for {@code reason}. */
	void report(String address, String reason) {
		log.warn("refused connection from {}: {}", address, reason);
		RejectedConnection rejected = new RejectedConnection(address, reason);
		synchronized (this) {
			sink.tryEmitNext(rejected);
		}
	}

	/** Ends the feed: the server is closed. */
	void complete() {
		synchronized (this) {
			sink.tryEmitComplete();
		}
	}

	Flux<RejectedConnection> asFlux() {
		return sink.asFlux();
	}
}
