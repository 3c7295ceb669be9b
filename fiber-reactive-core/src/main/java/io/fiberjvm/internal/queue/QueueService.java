package io.fiberjvm.internal.queue;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.Disposable;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.queue.FiberPipe;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Endpoint;

/**
 * The queues of one runtime: makes and hosts queues, each served to the run on routes of its own
 * ({@link QueueRoutes}), and turns queue handles read in this runtime into handles of its own.
 */
public final class QueueService implements Disposable {

	private static final SecureRandom RANDOM = new SecureRandom();

	private final RuntimeContext runtime;
	private final Map<String, QueueHost> hosted = new ConcurrentHashMap<>();
	private volatile boolean disposed;

	private QueueService(RuntimeContext runtime) {
		this.runtime = runtime;
	}

	/**
	 * Its runtime is closing: every queue it hosts ends, and every operation on them, waiting or later, fails at once
	 * with a {@code QueueClosedException} that says so. A queue made after this is refused by the runtime first.
	 */
	@Override
	public void dispose() {
		disposed = true;
		String why = closedReason();
		for (QueueHost host : hosted.values()) {
			host.terminate(why);
		}
	}

	private String closedReason() {
		String run = "run " + runtime.runId();
		// A program's runtime is named after its run; a job-backed process's after itself.
		String where = runtime.name().equals("run-" + runtime.runId()) ? run : "process " + runtime.name() + " of " + run;
		return "the Fiber hosting it (" + where + ") is closed";
	}

	@Override
	public boolean isDisposed() {
		return disposed;
	}

	/** The queue service of {@code runtime}, made on first use. */
	public static QueueService of(RuntimeContext runtime) {
		return runtime.service(QueueService.class, QueueService::new);
	}

	/** A new queue hosted by this runtime; binds its server first if it does not listen yet. */
	public <T> FiberQueue<T> create(Class<T> type, int capacity) {
		Objects.requireNonNull(type, "type");
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity " + capacity + " must be at least 1");
		}
		Endpoint here = listeningAddress();
		String id = "q" + Long.toString(RANDOM.nextLong() >>> 1, 36);
		Disposable[] served = new Disposable[1];
		QueueHost host = new QueueHost(id, capacity, () -> {
			// Closed and drained: forgotten, and no longer served.
			hosted.remove(id);
			served[0].dispose();
		});
		served[0] = runtime.serve(QueueRoutes.prefix(id), QueueRoutes.of(host, id, runtime.maxFrameSize(), runtime.values()));
		hosted.put(id, host);
		if (disposed) {
			// Made while the runtime closed, after the queues were ended: ended too (both flags are volatile).
			host.terminate(closedReason());
		}
		return new QueueHandle<>(new QueueRef(here.toString(), id, type.getName(), capacity), type, host, runtime);
	}

	/** A duplex pipe (each end sends to the other), or a one-way pipe whose left end receives what its right end sends. */
	public <T> FiberPipe<T> pipe(Class<T> type, boolean duplex) {
		FiberQueue<T> leftToRight = create(type, QueueHandle.DEFAULT_CAPACITY);
		if (!duplex) {
			return new FiberPipe<>(new QueuePipeEnd<>(leftToRight, null), new QueuePipeEnd<>(null, leftToRight));
		}
		FiberQueue<T> rightToLeft = create(type, QueueHandle.DEFAULT_CAPACITY);
		return new FiberPipe<>(new QueuePipeEnd<>(rightToLeft, leftToRight), new QueuePipeEnd<>(leftToRight, rightToLeft));
	}

	/** The handle, in this runtime, of a queue read from another process (or from this one). */
	FiberQueue<?> handle(QueueRef ref) {
		Class<?> type;
		try {
			type = Class.forName(ref.typeName, false, loader());
		}
		catch (ClassNotFoundException e) {
			throw new CodecException("queue " + ref.queueId + " holds " + ref.typeName + ", which is not on this classpath");
		}
		QueueHost local = hosted.get(ref.queueId);
		QueueChannel channel = local != null ? local
				: new RemoteChannel(runtime.connectionTo(Endpoint.parse(ref.host)), ref.queueId, runtime.values());
		return new QueueHandle<>(ref, type, channel, runtime);
	}

	/**
	 * Where this runtime listens, without blocking once it does (so a queue can be made on any thread then);
	 * until then, waiting for it to bind, at most the start timeout.
	 */
	private Endpoint listeningAddress() {
		CompletableFuture<Endpoint> now = runtime.address().toFuture();
		if (now.isDone() && !now.isCompletedExceptionally()) {
			return now.join();
		}
		Duration timeout = runtime.config().get(ConfigKeys.START_TIMEOUT);
		return Objects.requireNonNull(runtime.address().block(timeout), "address");
	}

	private static ClassLoader loader() {
		ClassLoader context = Thread.currentThread().getContextClassLoader();
		return context != null ? context : QueueService.class.getClassLoader();
	}
}
