package io.fiberjvm.internal.runtime;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.transport.ChannelHandler;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.UnknownRouteException;

/**
 * The routes a runtime serves: each service's prefix ({@code fiber.<name>/}) mapped to its router, for every
 * peer that proved the run's secret, and a job-backed child's own routes for that child alone.
 */
final class ServedRoutes {

	private static final Pattern PREFIX = Pattern.compile("fiber\\.[a-z][a-z0-9-]*/");

	private final Map<String, Router> services = new ConcurrentHashMap<>();

	/** Serves routes starting with {@code prefix} with {@code router} until the result is disposed. */
	Disposable serve(String prefix, Router router) {
		Objects.requireNonNull(prefix, "prefix");
		Objects.requireNonNull(router, "router");
		if (!PREFIX.matcher(prefix).matches()) {
			throw new IllegalArgumentException("a service prefix is 'fiber.<name>/' (lower-case letters, digits and dashes); not '"
					+ prefix + "'");
		}
		if (services.putIfAbsent(prefix, router) != null) {
			throw new IllegalStateException("routes '" + prefix + "' are served already by this runtime");
		}
		return () -> services.remove(prefix, router);
	}

	/** What a peer's requests reach: the services, and {@code own} routes (a child's) for the rest. */
	Router forPeer(@Nullable Router own) {
		return new PeerRouter(own);
	}

	private Router pick(String route, @Nullable Router own) {
		int slash = route.indexOf('/');
		Router service = slash < 0 ? null : services.get(route.substring(0, slash + 1));
		if (service != null) {
			return service;
		}
		return own != null && slash < 0 ? own : new Unserved(route);
	}

	/** Dispatches each request by its route's prefix. */
	private final class PeerRouter implements Router {

		private final @Nullable Router own;

		PeerRouter(@Nullable Router own) {
			this.own = own;
		}

		@Override
		public Mono<byte[]> requestResponse(String route, byte[] data) {
			return pick(route, own).requestResponse(route, data);
		}

		@Override
		public Flux<byte[]> requestStream(String route, byte[] data) {
			return pick(route, own).requestStream(route, data);
		}

		@Override
		public Flux<byte[]> requestChannel(String route, Publisher<byte[]> data) {
			return pick(route, own).requestChannel(route, data);
		}

		@Override
		public ChannelHandler<?> channel(String route) {
			return pick(route, own).channel(route);
		}

		@Override
		public Mono<Void> fireAndForget(String route, byte[] data) {
			return pick(route, own).fireAndForget(route, data);
		}
	}

	/** A route nothing here serves: a queue, pool, ring or manager that has ended, or was never made here. */
	private record Unserved(String route) implements Router {

		private UnknownRouteException error() {
			return new UnknownRouteException("nothing in this process serves route '" + route
					+ "' (a queue, pool, ring or manager that has ended, or was never made here)");
		}

		@Override
		public Mono<byte[]> requestResponse(String route, byte[] data) {
			return Mono.error(error());
		}

		@Override
		public Flux<byte[]> requestStream(String route, byte[] data) {
			return Flux.error(error());
		}

		@Override
		public Flux<byte[]> requestChannel(String route, Publisher<byte[]> data) {
			return Flux.error(error());
		}

		@Override
		public Mono<Void> fireAndForget(String route, byte[] data) {
			return Mono.error(error());
		}
	}
}
