package io.fiberjvm.transport;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.codec.CodecException;

/**
 * An immutable table of named handlers: the {@link Router} most code wants.
 *
 * <p>Each {@code with...} method returns a new table, leaving this one unchanged, so a table can be
 * shared and extended safely. A handler serves one route, or a family of routes (every route that starts
 * with a prefix, the handler given the rest: {@link #withResponses}, {@link #withChannels}); a route's own
 * handler wins over a family's. Typed handlers decode their input with this table's {@link Codec}; bytes it
 * cannot decode answer the requester with a {@link CodecException} naming the route and the type, and a
 * route the table does not serve in the interaction asked for answers with an {@link UnknownRouteException}
 * naming it.
 */
public final class Routes implements Router {

	private static final Routes EMPTY = empty(Codec.standard());

	private final Codec codec;
	private final Map<String, Function<byte[], Mono<byte[]>>> responses;
	private final Map<String, Function<byte[], Publisher<byte[]>>> streams;
	private final Map<String, ChannelHandler<?>> channels;
	private final Map<String, Function<byte[], Mono<Void>>> fires;
	private final Map<String, BiFunction<String, byte[], Mono<byte[]>>> responseFamilies;
	private final Map<String, Function<String, ChannelHandler<?>>> channelFamilies;

	private Routes(Codec codec, Map<String, Function<byte[], Mono<byte[]>>> responses,
			Map<String, Function<byte[], Publisher<byte[]>>> streams,
			Map<String, ChannelHandler<?>> channels,
			Map<String, Function<byte[], Mono<Void>>> fires,
			Map<String, BiFunction<String, byte[], Mono<byte[]>>> responseFamilies,
			Map<String, Function<String, ChannelHandler<?>>> channelFamilies) {
		this.codec = codec;
		this.responses = responses;
		this.streams = streams;
		this.channels = channels;
		this.fires = fires;
		this.responseFamilies = responseFamilies;
		this.channelFamilies = channelFamilies;
	}

	/** An empty table whose typed handlers use {@link Codec#standard()}. */
	public static Routes empty() {
		return EMPTY;
	}

	/** An empty table whose typed handlers use {@code codec}. */
	public static Routes empty(Codec codec) {
		Objects.requireNonNull(codec, "codec");
		return new Routes(codec, Map.of(), Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
	}

	/** Adds a request-response handler on raw bytes. */
	public Routes withResponse(String route, Function<byte[], Mono<byte[]>> handler) {
		return new Routes(codec, plus(responses, route, handler), streams, channels, fires, responseFamilies, channelFamilies);
	}

	/** Adds a request-stream handler on raw bytes. */
	public Routes withStream(String route, Function<byte[], Publisher<byte[]>> handler) {
		return new Routes(codec, responses, plus(streams, route, handler), channels, fires, responseFamilies, channelFamilies);
	}

	/** Adds a request-channel handler on raw bytes. */
	public Routes withChannel(String route, Function<Flux<byte[]>, Publisher<byte[]>> handler) {
		return withChannel(route, InboundReader.bytes(), handler);
	}

	/** Adds a request-channel handler whose data the transport reads with {@code reader} as it arrives. */
	public <T> Routes withChannel(String route, InboundReader<T> reader, Function<? super Flux<T>, ? extends Publisher<byte[]>> handler) {
		return new Routes(codec, responses, streams, plus(channels, route, ChannelHandler.of(reader, handler)), fires,
				responseFamilies, channelFamilies);
	}

	/**
	 * Adds a request-channel handler whose data the transport reads with {@code reader} as it arrives, and whose
	 * answers it writes where it sends them from.
	 */
	public <T> Routes withWrittenChannel(String route, InboundReader<T> reader,
			Function<? super Flux<T>, ? extends Publisher<? extends Outbound>> handler) {
		return new Routes(codec, responses, streams, plus(channels, route, ChannelHandler.written(reader, handler)), fires,
				responseFamilies, channelFamilies);
	}

	/** Adds a fire-and-forget handler on raw bytes. */
	public Routes withFireAndForget(String route, Function<byte[], Mono<Void>> handler) {
		return new Routes(codec, responses, streams, channels, plus(fires, route, handler), responseFamilies, channelFamilies);
	}

	/**
	 * Adds a request-response handler for every route that starts with {@code prefix}; it is given the rest of
	 * the route ({@code "a/b"} for {@code prefix + "a/b"}) and the request.
	 */
	public Routes withResponses(String prefix, BiFunction<String, byte[], Mono<byte[]>> handler) {
		return new Routes(codec, responses, streams, channels, fires, plus(responseFamilies, prefix, handler), channelFamilies);
	}

	/** Adds a request-channel handler for every route that starts with {@code prefix}, given the rest of the route. */
	public Routes withChannels(String prefix, BiFunction<String, Flux<byte[]>, Publisher<byte[]>> handler) {
		return withChannels(prefix, InboundReader.bytes(), handler);
	}

	/**
	 * Adds a request-channel handler for every route that starts with {@code prefix}, given the rest of the route,
	 * whose data the transport reads with {@code reader} as it arrives.
	 */
	public <T> Routes withChannels(String prefix, InboundReader<T> reader,
			BiFunction<String, ? super Flux<T>, ? extends Publisher<byte[]>> handler) {
		Objects.requireNonNull(reader, "reader");
		Objects.requireNonNull(handler, "handler");
		return new Routes(codec, responses, streams, channels, fires, responseFamilies, plus(channelFamilies, prefix,
				rest -> ChannelHandler.of(reader, data -> handler.apply(rest, data))));
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
			handler = family(responseFamilies, route);
		}
		if (handler == null) {
			return Mono.error(unknown("request-response", route, responses, responseFamilies));
		}
		Function<byte[], Mono<byte[]>> found = handler;
		return Mono.defer(() -> found.apply(data));
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
		return Flux.from(channel(route).answerArrays(data));
	}

	@Override
	public ChannelHandler<?> channel(String route) {
		ChannelHandler<?> handler = channels.get(route);
		if (handler != null) {
			return handler;
		}
		Map.Entry<String, Function<String, ChannelHandler<?>>> family = longest(channelFamilies, route);
		if (family != null) {
			return family.getValue().apply(route.substring(family.getKey().length()));
		}
		UnknownRouteException unknown = unknown("request-channel", route, channels, channelFamilies);
		return ChannelHandler.of(InboundReader.bytes(), data -> Flux.error(unknown));
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

	/**
	 * The handler of the family with the longest prefix {@code route} starts with, bound to the rest of the
	 * route; null if none.
	 */
	private static <I, O> @Nullable Function<I, O> family(Map<String, BiFunction<String, I, O>> families, String route) {
		Map.Entry<String, BiFunction<String, I, O>> longest = longest(families, route);
		if (longest == null) {
			return null;
		}
		String rest = route.substring(longest.getKey().length());
		BiFunction<String, I, O> handler = longest.getValue();
		return input -> handler.apply(rest, input);
	}

	/** The family with the longest prefix {@code route} starts with; null if none. */
	private static <F> Map.@Nullable Entry<String, F> longest(Map<String, F> families, String route) {
		Map.Entry<String, F> longest = null;
		for (Map.Entry<String, F> family : families.entrySet()) {
			if (route.startsWith(family.getKey()) && (longest == null || family.getKey().length() > longest.getKey().length())) {
				longest = family;
			}
		}
		return longest;
	}

	private static UnknownRouteException unknown(String model, String route, Map<String, ?> known) {
		return unknown(model, route, known, Map.of());
	}

	private static UnknownRouteException unknown(String model, String route, Map<String, ?> known, Map<String, ?> families) {
		java.util.List<String> served = new java.util.ArrayList<>(known.keySet());
		families.keySet().forEach(prefix -> served.add(prefix + "*"));
		return new UnknownRouteException("unknown " + model + " route '" + route + "'; this side serves " + served);
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
