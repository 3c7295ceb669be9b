package io.fiberjvm.internal.pool;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.LatencyFeed;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.PoolScaling;
import io.fiberjvm.pool.PoolStats;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Routes;

/**
 * One pool, as every view of it shares it: its lifecycle, its task codec, its dispatcher and its fleet of
 * workers, and the route its workers' sessions arrive on, {@code fiber.pool-<id>/work/<worker>}.
 */
final class PoolCore {

	private static final SecureRandom RANDOM = new SecureRandom();

	private final String name;
	private final String prefix;
	private final RuntimeContext runtime;
	final PoolLifecycle lifecycle;
	final TaskCodec codec;
	final Dispatcher dispatcher;
	private final WorkerFleet fleet;
	/** How the pool sizes itself, or null for a pool of a fixed size. */
	private final @Nullable PoolScaling scaling;
	private final @Nullable PoolAutoscaler autoscaler;
	private final AtomicLong taskIds = new AtomicLong();
	final AtomicLong retried = new AtomicLong();
	final AtomicLong submitted = new AtomicLong();
	/** Each task's time from submission to its final outcome. */
	final LatencyFeed latencies = new LatencyFeed();
	private volatile @Nullable Disposable served;
	/** Whether the last worker has ended; a retirement and a process's end may both see it. */
	private final AtomicBoolean finished = new AtomicBoolean();

	/**
	 * @param initializer the Java-serialized initializer, or null
	 * @param initializerAllow the pattern naming the initializer's package
	 */
	PoolCore(RuntimeContext runtime, String name, int size, @Nullable PoolScaling scaling, int perProcess, ResourceSpec resources,
			byte @Nullable [] initializer, List<String> initializerAllow, RestartBackoff backoff) {
		this.runtime = runtime;
		this.name = name;
		this.prefix = "fiber.pool-" + Long.toString(RANDOM.nextLong() >>> 1, 36) + "/";
		this.lifecycle = new PoolLifecycle(name, this::retireAll);
		this.scaling = scaling;
		this.codec = new TaskCodec(runtime.values(), runtime.maxFrameSize());
		this.dispatcher = new Dispatcher(codec.chunkBytes(), codec::complete);
		String sessions = prefix + "work/";
		this.fleet = new WorkerFleet(runtime, name, size, perProcess, resources,
				workers -> new PoolWorker(workers.stream().map(worker -> sessions + worker).toList(), initializer, initializerAllow),
				backoff, dispatcher, lifecycle, this::finished);
		this.autoscaler = scaling == null ? null : new PoolAutoscaler(name, scaling, dispatcher, fleet);
	}

	String name() {
		return name;
	}

	/** Serves the workers' route, then starts them; a runtime that is closing refuses it. */
	void open() {
		Disposable route;
		try {
			route = runtime.serve(prefix, Routes.empty().withChannels(prefix + "work/", ResultsFrame.reader(runtime.values()), this::attach)
					.withChannels(prefix + "streams/", this::stream));
		}
		catch (FiberException closing) {
			throw Pools.closed(name, closing);
		}
		served = route;
		try {
			Pools.of(runtime).register(this);
		}
		catch (RuntimeException closing) {
			route.dispose();
			throw closing;
		}
		fleet.ensureWorkers();
		if (autoscaler != null) {
			autoscaler.start();
		}
	}

	long nextTaskId() {
		return taskIds.incrementAndGet();
	}

	/** A worker's session arrives: if it is one of ours, it takes tasks now. */
	private Flux<byte[]> attach(String worker, Flux<ResultsFrame> inbound) {
		return Flux.create(sink -> {
			switch (fleet.admit(worker)) {
				case UNKNOWN -> {
					sink.error(new PoolClosedException("pool " + name + " has no worker '" + worker + "' (retired, or never started)"));
					return;
				}
				case RETIRED -> {
					// Retired while its process started; the process's other workers may still be wanted.
					Flux.from(inbound).subscribe(frame -> { }, error -> { });
					sink.complete();
					return;
				}
				case ADMITTED -> { }
			}
			WorkerSession session = dispatcher.open(worker, fleet.hostOf(worker), sink);
			if (session == null) {
				sink.error(new PoolClosedException("pool " + name + " was terminated"));
				return;
			}
			if (fleet.isRetired(worker)) {
				// Retired between its admission and its session's opening: it ends once it holds nothing.
				dispatcher.retire(worker);
			}
			sink.onRequest(n -> dispatcher.credit(session));
			sink.onCancel(() -> fleet.sessionEnded(session, "its session was cancelled", true));
			inbound.subscribe(frame -> {
				dispatcher.results(session, frame);
				if (frame.stuck()) {
					fleet.sessionEnded(session, "a task it ran did not stop when interrupted, so its JVM is replaced", true);
				}
			},
					error -> {
						if (error instanceof CodecException malformed) {
							dispatcher.lost(session, "it sent a malformed result frame (" + malformed.getMessage() + ")");
						}
						else {
							fleet.sessionEnded(session, "its connection failed (" + error.getMessage() + ")", true);
						}
					},
					() -> fleet.sessionEnded(session, "it ended its session", false));
			fleet.ensureWorkers();
		}, FluxSink.OverflowStrategy.ERROR);
	}

	/** A worker opens the stream of the streaming task it runs, on {@code fiber.pool-<id>/streams/<worker>/<task id>}. */
	private Publisher<byte[]> stream(String rest, Flux<byte[]> elements) {
		int slash = rest.lastIndexOf('/');
		StreamAttempt attempt = null;
		if (slash > 0) {
			try {
				attempt = dispatcher.streaming(rest.substring(0, slash), Long.parseLong(rest.substring(slash + 1)));
			}
			catch (NumberFormatException notAnId) {
				// No task has such an id: refused below.
			}
		}
		if (attempt == null) {
			return Flux.error(new IllegalStateException("pool " + name + " runs no streaming task '" + rest
					+ "' now (its caller cancelled, or it ended)"));
		}
		return attempt.open(rest.substring(0, slash), elements);
	}

	int size() {
		return fleet.size();
	}

	/** On an autoscaling pool, sets the size it goes on scaling from, within its bounds. */
	void resize(int workers) {
		if (scaling != null && (workers < scaling.min() || workers > scaling.max())) {
			throw new IllegalArgumentException("pool " + name + " scales between " + scaling.min() + " and " + scaling.max()
					+ " workers; cannot resize it to " + workers);
		}
		if (scaling == null && workers < 1) {
			throw new IllegalArgumentException("a pool needs at least 1 worker, not " + workers);
		}
		fleet.resize(workers);
	}

	List<FiberProcess> workers() {
		return fleet.processes();
	}

	RunStatus.Pool status() {
		return new RunStatus.Pool(name, fleet.size(), min(), max(), fleet.states());
	}

	PoolStats stats() {
		long[] d = dispatcher.counters();
		long[] f = fleet.counters();
		return new PoolStats((int) d[0], fleet.size(), d[1], d[2], d[3], d[4], d[5], retried.get(), f[0], f[1], submitted.get(), f[2],
				d[6], min(), max(), Duration.ofNanos(d[7]));
	}

	/** The fewest workers the pool keeps: its size, unless it scales. */
	private int min() {
		return scaling == null ? fleet.size() : scaling.min();
	}

	/** The most workers the pool grows to: its size, unless it scales. */
	private int max() {
		return scaling == null ? fleet.size() : scaling.max();
	}

	/** Takes no more calls; once those accepted have ended, retires every worker. */
	void close() {
		// An autoscaling pool goes on scaling while it drains: a pool of none with calls accepted needs a worker.
		lifecycle.close();
	}

	private void stopScaling() {
		if (autoscaler != null) {
			autoscaler.stop();
		}
	}

	/** Every accepted call has ended: the workers finish what they hold and stop. */
	private void retireAll() {
		stopScaling();
		fleet.retireAll();
	}

	/** Stops now: what is queued or running fails with {@link PoolClosedException}, and the workers are stopped. */
	void terminate() {
		stopScaling();
		if (lifecycle.terminate()) {
			dispatcher.terminate("pool " + name + " was terminated");
			fleet.terminateAll();
		}
	}

	/** The last worker has ended after the pool retired or terminated them; once. */
	private void finished() {
		if (!finished.compareAndSet(false, true)) {
			return;
		}
		stopScaling();
		dispatcher.terminate("pool " + name + " was closed");
		Disposable route = served;
		if (route != null) {
			route.dispose();
		}
		Pools.of(runtime).unregister(this);
		lifecycle.ended();
	}

	Mono<Void> onClose() {
		return lifecycle.onClose();
	}

	/** A task reached its final outcome {@code nanos} after it was submitted. */
	void taskEnded(long nanos) {
		latencies.record(nanos);
	}

	Flux<Duration> taskLatencies() {
		return latencies.flux();
	}
}
