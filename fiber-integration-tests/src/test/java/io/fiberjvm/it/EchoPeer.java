package io.fiberjvm.it;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.TransportSettings;
import io.fiberjvm.transport.rsocket.RSocketTransport;

/**
 * A peer in another JVM for the transport tests: connects to {@code host:port} with the secret in
 * {@code PEER_SECRET} and serves {@code echo}, {@code firehose} (an endless stream that counts what it
 * produced) and {@code produced} (that count). Exits when the connection closes.
 */
public final class EchoPeer {

	private EchoPeer() {
	}

	public static void main(String[] args) {
		AtomicLong produced = new AtomicLong();
		Routes routes = Routes.empty()
				.withResponse("echo", bytes -> Mono.just(bytes))
				.withStream("firehose", bytes -> Flux.generate(sink -> sink.next(new byte[64]))
						.map(b -> (byte[]) b)
						.doOnNext(b -> produced.incrementAndGet()))
				.withResponse("produced", String.class, ignored -> Mono.just(produced.get()));
		TransportSettings settings = new TransportSettings(System.getenv("PEER_SECRET"), 1 << 20, 1 << 20,
				Duration.ofMillis(300), Duration.ofSeconds(2));
		Connection connection = new RSocketTransport(settings).connect(Endpoint.parse(args[0]), args[1], routes)
				.block(Duration.ofSeconds(60));
		System.out.println("CONNECTED pid=" + ProcessHandle.current().pid());
		System.out.flush();
		connection.onClose().block();
		System.exit(0);
	}
}
