package io.fiberjvm.runtime;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.UnknownRouteException;

/**
 * A runtime with no network and no backend, for unit tests of services: what they serve is kept here and
 * reachable through {@link #router()}; the processes they start are whatever {@code starter} makes of them.
 * Core cannot run the real runtime in its own tests, since no transport is on its classpath.
 */
public final class InProcessRuntime implements RuntimeContext {

	/** A start a service asked for. */
	public record Start(ProcessTarget target, String name, ResourceSpec resources, Map<String, String> environment) {
	}

	private final FiberConfig config = FiberConfig.resolve(Map.of(), new Properties(), Map.of(), null);
	private final ShippedValues values = new ShippedValues(List.of(), read -> read instanceof HandleRef ref ? ref.resolve(this) : read);
	private final Map<String, Router> served = new ConcurrentHashMap<>();
	private final Map<Class<?>, Object> services = new ConcurrentHashMap<>();
	private final Function<Start, Mono<FiberProcess>> starter;

	/** A runtime that starts no process. */
	public InProcessRuntime() {
		this(start -> Mono.error(new UnsupportedOperationException("no processes in this test")));
	}

	public InProcessRuntime(Function<Start, Mono<FiberProcess>> starter) {
		this.starter = starter;
	}

	@Override
	public String name() {
		return "in-process";
	}

	@Override
	public String runId() {
		return "test";
	}

	@Override
	public FiberConfig config() {
		return config;
	}

	@Override
	public Mono<Endpoint> address() {
		return Mono.just(new Endpoint("127.0.0.1", 9));
	}

	@Override
	public Optional<Endpoint> parentAddress() {
		return Optional.empty();
	}

	@Override
	public Mono<Connection> connectionTo(Endpoint endpoint) {
		return Mono.error(new IllegalStateException("no network in this test"));
	}

	@Override
	public Mono<Connection> dedicatedConnectionTo(Endpoint endpoint) {
		return connectionTo(endpoint);
	}

	@Override
	public Disposable serve(String prefix, Router router) {
		if (served.putIfAbsent(prefix, router) != null) {
			throw new IllegalStateException("routes '" + prefix + "' are served already");
		}
		return () -> served.remove(prefix, router);
	}

	@Override
	public Mono<FiberProcess> start(ProcessTarget target, String name, ResourceSpec resources, Map<String, String> environment) {
		return Mono.defer(() -> starter.apply(new Start(target, name, resources, environment)));
	}

	@Override
	public boolean jobsRunOnThisMachine() {
		return true;
	}

	@Override
	public ShippedValues values() {
		return values;
	}

	@Override
	public int maxFrameSize() {
		return 1 << 20;
	}

	@Override
	public <S> S service(Class<S> kind, Function<? super RuntimeContext, ? extends S> create) {
		return kind.cast(services.computeIfAbsent(kind, k -> create.apply(this)));
	}

	@Override
	public Mono<Void> onClose() {
		return Mono.never();
	}

	/** The prefixes served here now. */
	public java.util.Set<String> served() {
		return java.util.Set.copyOf(served.keySet());
	}

	/** The routes served here, picked by their prefix as a peer's requests would be. */
	public Router router() {
		return new Router() {
			private Router pick(String route) {
				int slash = route.indexOf('/');
				Router router = slash < 0 ? null : served.get(route.substring(0, slash + 1));
				if (router == null) {
					throw new UnknownRouteException("nothing in this test serves route '" + route + "'");
				}
				return router;
			}

			@Override
			public Mono<byte[]> requestResponse(String route, byte[] data) {
				return Mono.defer(() -> pick(route).requestResponse(route, data));
			}

			@Override
			public Flux<byte[]> requestStream(String route, byte[] data) {
				return Flux.defer(() -> pick(route).requestStream(route, data));
			}

			@Override
			public Flux<byte[]> requestChannel(String route, Publisher<byte[]> data) {
				return Flux.defer(() -> pick(route).requestChannel(route, data));
			}

			@Override
			public Mono<Void> fireAndForget(String route, byte[] data) {
				return Mono.defer(() -> pick(route).fireAndForget(route, data));
			}
		};
	}
}
