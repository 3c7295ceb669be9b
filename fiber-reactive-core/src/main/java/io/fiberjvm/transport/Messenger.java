package io.fiberjvm.transport;

import java.util.Objects;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.codec.CodecException;

/**
 * Sends typed values over a {@link Connection}: arguments are encoded and results decoded with a
 * {@link Codec}.
 *
 * <p>A response the codec cannot read as the type asked for fails that request with a
 * {@link CodecException} naming the route; the connection goes on.
 */
public final class Messenger {

	private final Connection connection;
	private final Codec codec;

	private Messenger(Connection connection, Codec codec) {
		this.connection = connection;
		this.codec = codec;
	}

	/** Typed requests over {@code connection} with {@code codec}. */
	public static Messenger over(Connection connection, Codec codec) {
		return new Messenger(Objects.requireNonNull(connection, "connection"), Objects.requireNonNull(codec, "codec"));
	}

	/** The connection requests travel over. */
	public Connection connection() {
		return connection;
	}

	/** Request-response. */
	public <R> Mono<R> request(String route, Object argument, Class<R> resultType) {
		return Mono.fromCallable(() -> codec.encode(argument))
				.flatMap(bytes -> connection.requestResponse(route, bytes))
				.map(bytes -> decode(route, bytes, resultType));
	}

	/** Request-stream; demand flows to the remote publisher. */
	public <R> Flux<R> stream(String route, Object argument, Class<R> resultType) {
		return Mono.fromCallable(() -> codec.encode(argument))
				.flatMapMany(bytes -> connection.requestStream(route, bytes))
				.map(bytes -> decode(route, bytes, resultType));
	}

	/** Request-channel. */
	public <R> Flux<R> channel(String route, Publisher<?> arguments, Class<R> resultType) {
		return connection.requestChannel(route, Flux.from(arguments).map(argument -> Outbound.of(codec.encode(argument))))
				.map(bytes -> decode(route, bytes, resultType));
	}

	/** Fire-and-forget. */
	public Mono<Void> fire(String route, Object argument) {
		return Mono.fromCallable(() -> codec.encode(argument)).flatMap(bytes -> connection.fireAndForget(route, bytes));
	}

	private <R> R decode(String route, byte[] bytes, Class<R> type) {
		try {
			return codec.decode(bytes, type);
		}
		catch (CodecException e) {
			throw new CodecException("route '" + route + "': " + e.getMessage(), e);
		}
	}
}
