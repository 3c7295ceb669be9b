package io.fiberjvm.transport;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.codec.CodecException;

/**
 * An immutable table of named handlers: the {@link Router} most code wants.
 *
 * <p>Each {@code with...} method returns a new table, leaving this one unchanged, so a table can be
 * shared and extended safely. Typed handlers decode their input with this table's {@link Codec}; bytes
 * it cannot decode answer the requester with a {@link CodecException} naming the route and the type,
 * and a route that is not in the table answers with an {@link UnknownRouteException} naming it.
 */
public final class Routes implements Router {

	private final Codec codec;
	private final Map<String, Function<byte[], Mono<byte[]>>> responses;
	private final Map<String, Function<byte[], Publisher<byte[]>>> streams;
	private final Map<String, Function<Flux<byte[]>, Publisher<byte[]>>> channels;
	private final Map<String, Function<byte[], Mono<Void>>> fires;

	private Routes(Codec codec, Map<String, Function<byte[], Mono<byte[]>>> responses,
			Map<String, Function<byte[], Publisher<byte[]>>> streams,
			Map<String, Function<Flux<byte[]>, Publisher<byte[]>>> channels,
			Map<String, Function<byte[], Mono<Void>>> fires) {
		this.codec = codec;
		this.responses = responses;
		this.streams = streams;
		this.channels = channels;
		this.fires = fires;
	}

	/** An empty table whose typed handlers use the Smile codec. */
	public static Routes empty() {
		return empty(Codec.smile());
	}

	/** An empty table whose typed handlers use {@code codec}. */
	public static Routes empty(Codec codec) {
		Objects.requireNonNull(codec, "codec");
		return new Routes(codec, Map.of(), Map.of(), Map.of(), Map.of());
	}

	/** Adds a request-response handler on raw bytes. */
	public Routes withResponse(String route, Function<byte[], Mono<byte[]>> handler) {
		return new Routes(codec, plus(responses, route, handler), streams, channels, fires);
	}

	/** Adds a request-stream handler on raw bytes. */
	public Routes withStream(String route, Function<byte[], Publisher<byte[]>> handler) {
		return new Routes(codec, responses, plus(streams, route, handler), channels, fires);
	}

	/** Adds a request-channel handler on raw bytes. */
	public Routes withChannel(String route, Function<Flux<byte[]>, Publisher<byte[]>> handler) {
		return new Routes(codec, responses, streams, plus(channels, route, handler), fires);
	}

	/** Adds a fire-and-forget handler on raw bytes. */
	public Routes withFireAndForget(String route, Function<byte[], Mono<Void>> handler) {
		return new Routes(codec, responses, streams, channels, plus(fires, route, handler));
	}

	/** Adds a typed request-response handler. */
	public <I, O> Routes withResponse(String route, Class<I> input, Function<? super I, ? extends Mono<? extends O>> handler) {
		Objects.requireNonNull(handler, "handler");
		return withResponse(route, bytes -> Mono.defer(() -> handler.apply(decode(route, bytes, input))).map(codec::encode));
	}

	/** Adds a typed request-stream handler. */
	public <I, O> Routes withStream(String route, Class<I> input, Function<? super I, ? extends Publisher<? extends O>> handler) {
		Objects.requireNonNull(handler, "handler");
		return withStream(route, bytes -> Flux.<O>defer(() -> Flux.from(handler.apply(decode(route, bytes, input)))).map(codec::encode));
	}

	/** Adds a typed request-channel handler. */
	public <I, O> Routes withChannel(String route, Class<I> input,
			Function<? super Flux<I>, ? extends Publisher<? extends O>> handler) {
		Objects.requireNonNull(handler, "handler");
		return withChannel(route, in -> Flux.<O>defer(() -> Flux.from(handler.apply(in.map(bytes -> decode(route, bytes, input)))))
				.map(codec::encode));
	}

	/** Adds a typed fire-and-forget handler. */
	public <I> Routes withFireAndForget(String route, Class<I> input, Function<? super I, ? extends Mono<Void>> handler) {
		Objects.requireNonNull(handler, "handler");
		return withFireAndForget(route, bytes -> Mono.defer(() -> handler.apply(decode(route, bytes, input))));
	}

	@Override
	public Mono<byte[]> requestResponse(String route, byte[] data) {
		Function<byte[], Mono<byte[]>> handler = responses.get(route);
		if (handler == null) {
			return Mono.error(unknown("request-response", route, responses));
		}
		return Mono.defer(() -> handler.apply(data));
	}

	@Override
	public Flux<byte[]> requestStream(String route, byte[] data) {
		Function<byte[], Publisher<byte[]>> handler = streams.get(route);
		if (handler == null) {
			return Flux.error(unknown("request-stream", route, streams));
		}
		return Flux.defer(() -> handler.apply(data));
	}

	@Override
	public Flux<byte[]> requestChannel(String route, Publisher<byte[]> data) {
		Function<Flux<byte[]>, Publisher<byte[]>> handler = channels.get(route);
		if (handler == null) {
			return Flux.error(unknown("request-channel", route, channels));
		}
		return Flux.defer(() -> handler.apply(Flux.from(data)));
	}

	@Override
	public Mono<Void> fireAndForget(String route, byte[] data) {
		Function<byte[], Mono<Void>> handler = fires.get(route);
		if (handler == null) {
			return Mono.error(unknown("fire-and-forget", route, fires));
		}
		return Mono.defer(() -> handler.apply(data));
	}

	private <T> T decode(String route, byte[] bytes, Class<T> type) {
		try {
			return codec.decode(bytes, type);
		}
		catch (CodecException e) {
			throw new CodecException("route '" + route + "': " + e.getMessage(), e);
		}
	}

	private static UnknownRouteException unknown(String model, String route, Map<String, ?> known) {
		return new UnknownRouteException("unknown " + model + " route '" + route + "'; this side serves " + known.keySet());
	}

	private static <H> Map<String, H> plus(Map<String, H> table, String route, H handler) {
		Objects.requireNonNull(route, "route");
		Objects.requireNonNull(handler, "handler");
		if (route.isEmpty()) {
			throw new IllegalArgumentException("a route needs a name");
		}
		Map<String, H> copy = new TreeMap<>(table);
		if (copy.put(route, handler) != null) {
			throw new IllegalArgumentException("route '" + route + "' is already taken");
		}
		return Collections.unmodifiableMap(copy);
	}
}
