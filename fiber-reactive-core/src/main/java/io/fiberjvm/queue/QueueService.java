package io.fiberjvm.queue;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.UnknownRouteException;

/**
 * The queues of one runtime: creates and hosts queues, serves them to other processes over the
 * transport ({@link #router()}), and turns handles read from other processes into local or remote handles.
 */
public final class QueueService {

	private static final SecureRandom RANDOM = new SecureRandom();

	private final QueueContext context;
	private final Map<String, QueueHost> hosted = new ConcurrentHashMap<>();
	private final Router router = new QueueRouter();

	public QueueService(QueueContext context) {
		this.context = Objects.requireNonNull(context, "context");
	}

	/** A new queue hosted by this runtime. */
	public <T> FiberQueue<T> create(Class<T> type, int capacity) {
		Objects.requireNonNull(type, "type");
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity " + capacity + " must be at least 1");
		}
		Endpoint here = context.localAddress();
		String id = "q" + Long.toString(RANDOM.nextLong() >>> 1, 36);
		QueueHost host = new QueueHost(id, capacity, () -> hosted.remove(id));
		hosted.put(id, host);
		return new QueueHandle<>(new QueueRef(here.toString(), id, type.getName(), capacity), type, host, context);
	}

	/** The handle for a queue read from another process. */
	FiberQueue<?> handle(QueueRef ref) {
		Class<?> type;
		try {
			type = Class.forName(ref.typeName(), false, loader());
		}
		catch (ClassNotFoundException e) {
			throw new CodecException("queue " + ref.queueId() + " holds " + ref.typeName() + ", which is not on this classpath");
		}
		QueueHost local = hosted.get(ref.queueId());
		QueueChannel channel = local != null ? local
				: new RemoteChannel(context.connectionTo(Endpoint.parse(ref.host())), ref.queueId());
		return new QueueHandle<>(ref, type, channel, context);
	}

	/** The runtime this service belongs to. */
	public QueueContext context() {
		return context;
	}

	/** Serves this runtime's queues: routes {@code fiber.queue/<id>/<operation>}. */
	public Router router() {
		return router;
	}

	/** Whether {@code route} is one of the queue service's. */
	public static boolean serves(String route) {
		return route.startsWith(QueueRoutes.PREFIX);
	}

	private static ClassLoader loader() {
		ClassLoader context = Thread.currentThread().getContextClassLoader();
		return context != null ? context : QueueService.class.getClassLoader();
	}

	/** Dispatches a queue route to the host of the queue it names. */
	private final class QueueRouter implements Router {

		private QueueHost host(String route, String operation) {
			String rest = route.substring(QueueRoutes.PREFIX.length());
			int slash = rest.indexOf('/');
			String id = slash < 0 ? rest : rest.substring(0, slash);
			String op = slash < 0 ? "" : rest.substring(slash + 1);
			QueueHost host = hosted.get(id);
			if (host == null) {
				throw new UnknownRouteException("no queue '" + id + "' in this process (closed and drained, or never made here)");
			}
			if (!op.equals(operation)) {
				throw new UnknownRouteException("queue route '" + route + "' does not serve this interaction");
			}
			return host;
		}

		@Override
		public Mono<byte[]> requestResponse(String route, byte[] data) {
			return Mono.defer(() -> {
				if (route.endsWith("/" + QueueRoutes.PUT)) {
					return host(route, QueueRoutes.PUT).put(data).thenReturn(new byte[0]);
				}
				if (route.endsWith("/" + QueueRoutes.SIZE)) {
					return host(route, QueueRoutes.SIZE).size().map(n -> Batches.encodeLongs(n));
				}
				return host(route, QueueRoutes.CLOSE).close().thenReturn(new byte[0]);
			});
		}

		@Override
		public Flux<byte[]> requestStream(String route, byte[] data) {
			return Flux.error(new UnknownRouteException("queue route '" + route + "' does not serve request-stream"));
		}

		@Override
		public Flux<byte[]> requestChannel(String route, Publisher<byte[]> data) {
			return Flux.defer(() -> {
				if (route.endsWith("/" + QueueRoutes.SEND)) {
					return host(route, QueueRoutes.SEND).send(Flux.from(data).map(Batches::decode)).map(Batches::encodeLongs);
				}
				// A batch is as large as the consumer's credit; split it so no frame outgrows the transport's limit.
				int limit = Math.max(1024, context.maxFrameSize() / 2);
				return host(route, QueueRoutes.RECEIVE).receive(Flux.from(data).map(frame -> Batches.decodeLongs(frame, 2)))
						.concatMapIterable(batch -> Batches.split(batch, limit))
						.map(Batches::encode);
			});
		}

		@Override
		public Mono<Void> fireAndForget(String route, byte[] data) {
			return Mono.error(new UnknownRouteException("queue route '" + route + "' does not serve fire-and-forget"));
		}
	}
}
