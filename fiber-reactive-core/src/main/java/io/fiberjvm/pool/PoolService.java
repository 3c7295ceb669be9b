package io.fiberjvm.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.UnknownRouteException;

/**
 * The pools of one runtime and the route their workers' sessions arrive on:
 * {@code fiber.pool/<pool id>/work/<worker name>}, a request-channel.
 */
public final class PoolService {

	static final String PREFIX = "fiber.pool/";

	private final Map<String, PoolCore> pools = new ConcurrentHashMap<>();
	private volatile boolean closed;
	private final Router router = new PoolRouter();

	/** Whether {@code route} is one of the pool service's. */
	public static boolean serves(String route) {
		return route.startsWith(PREFIX);
	}

	static String route(String poolId, String worker) {
		return PREFIX + poolId + "/work/" + worker;
	}

	public Router router() {
		return router;
	}

	void register(PoolCore pool) {
		if (closed) {
			throw new PoolClosedException("the Fiber this pool belongs to is closed; cannot open pool " + pool.name());
		}
		pools.put(pool.id(), pool);
		if (closed) {
			// Closed meanwhile: terminateAll may not have seen it.
			pools.remove(pool.id());
			throw new PoolClosedException("the Fiber this pool belongs to is closed; cannot open pool " + pool.name());
		}
	}

	void unregister(PoolCore pool) {
		pools.remove(pool.id(), pool);
	}

	/** Every open pool of the runtime and its workers, for {@code fiber ps}. */
	public List<io.fiberjvm.RunStatus.Pool> status() {
		return pools.values().stream().map(pool -> new io.fiberjvm.RunStatus.Pool(pool.name(), pool.size(), pool.workerStates()))
				.toList();
	}

	/** Terminates every pool of the runtime; it is closing. */
	public void terminateAll() {
		closed = true;
		new ArrayList<>(pools.values()).forEach(PoolCore::terminate);
	}

	private final class PoolRouter implements Router {

		@Override
		public Flux<byte[]> requestChannel(String route, Publisher<byte[]> data) {
			String rest = route.substring(PREFIX.length());
			int slash = rest.indexOf("/work/");
			PoolCore pool = slash < 0 ? null : pools.get(rest.substring(0, slash));
			if (pool == null) {
				// Drain what the peer sends so the channel ends cleanly with the error.
				return Flux.error(new UnknownRouteException("no pool for route '" + route + "' in this process (closed, or never made here)"));
			}
			return pool.attach(rest.substring(slash + "/work/".length()), data);
		}

		@Override
		public Mono<byte[]> requestResponse(String route, byte[] data) {
			return Mono.error(new UnknownRouteException("pool route '" + route + "' serves only request-channel"));
		}

		@Override
		public Flux<byte[]> requestStream(String route, byte[] data) {
			return Flux.error(new UnknownRouteException("pool route '" + route + "' serves only request-channel"));
		}

		@Override
		public Mono<Void> fireAndForget(String route, byte[] data) {
			return Mono.error(new UnknownRouteException("pool route '" + route + "' serves only request-channel"));
		}
	}
}
