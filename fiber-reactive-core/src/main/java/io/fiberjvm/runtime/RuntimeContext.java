package io.fiberjvm.runtime;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;

/**
 * What a service of a run (queues, pools, rings, managers) gets from the runtime it belongs to: where the
 * runtime listens, connections to the other processes of the run, the routes it serves, job-backed processes
 * it starts, and how values travel.
 *
 * <p>Every process of a run has one: the program's own (behind {@link io.fiberjvm.Fiber}) and each job-backed
 * process's, which joined the run with its secret. Services never reach a runtime through a global or a
 * thread-local: they are handed this context, and objects that travel (a queue's handle, say) are read back
 * by the reading runtime's {@link #values()}, which resolves each {@link HandleRef} with it.
 *
 * <p>Operations after the runtime has closed fail with a {@link io.fiberjvm.FiberException} saying so.
 */
public interface RuntimeContext {

	/** The name this runtime gives the peers it connects to: its job id in a job-backed process. */
	String name();

	/** The run's id, which prefixes every job id the runtime makes. */
	String runId();

	/** The resolved configuration; job-backed processes receive it too. */
	FiberConfig config();

	/** Where other processes of the run reach this runtime; it listens from the first subscription on. */
	Mono<Endpoint> address();

	/** Where the parent of this job-backed process listens; empty in a program's own runtime. */
	Optional<Endpoint> parentAddress();

	/**
	 * A connection to the runtime of this run listening at {@code endpoint}: made on first use, authenticated
	 * with the run's secret, shared by every caller until it closes.
	 */
	Mono<Connection> connectionTo(Endpoint endpoint);

	/** A new connection to {@code endpoint}, shared with no one: its caller closes it. */
	Mono<Connection> dedicatedConnectionTo(Endpoint endpoint);

	/**
	 * Serves the routes that start with {@code prefix} ({@code fiber.<name>/}, lower-case letters, digits and
	 * dashes) with {@code router}, to every peer that proved the run's secret, until the result is disposed.
	 *
	 * @throws IllegalArgumentException for a prefix of another form
	 * @throws IllegalStateException when the prefix is served already
	 * @throws io.fiberjvm.FiberException when the runtime is closing or closed
	 */
	Disposable serve(String prefix, Router router);

	/**
	 * Starts a job-backed process that runs {@code target} with its own runtime, when subscribed; emits the
	 * process once the backend has made its job. Fails before any job exists when the target cannot travel.
	 *
	 * @param name the process's name, in its job id, logs and errors
	 * @param environment variables for the process, beside Fiber's own
	 */
	Mono<FiberProcess> start(ProcessTarget target, String name, ResourceSpec resources, Map<String, String> environment);

	/**
	 * Starts {@code target} as {@link #start} does, for a target that leaves nothing behind that the next could
	 * trip on (a pool worker's): in a JVM that such a target with the same resources left idle, when there is one
	 * ({@code worker-idle-time}), else in a new JVM that stays idle after it. The process emitted is this target's
	 * run: it exits with code 0 once the target has returned, whether or not its JVM stays; terminating it ends
	 * the JVM while the target runs.
	 */
	default Mono<FiberProcess> startReusable(ProcessTarget target, String name, ResourceSpec resources) {
		return start(target, name, resources, Map.of());
	}

	/** Whether the processes this runtime starts run on this machine and share its cores (the local backend). */
	boolean jobsRunOnThisMachine();

	/**
	 * The run's one codec, through which every value that travels between processes is written and read: the
	 * run's allow-list applied on both sides, and handles read back as handles of this runtime.
	 */
	ShippedValues values();

	/** The largest frame the transport carries, in bytes. */
	int maxFrameSize();

	/**
	 * This runtime's one instance of a service kind, made by {@code create} on first use (two threads asking at
	 * once may each run {@code create}; one instance is kept and the other, if {@link Disposable}, disposed). A
	 * service that is {@code Disposable} is disposed first when the runtime closes, before its processes are
	 * stopped; one made once the runtime has begun closing is disposed at once.
	 */
	<S> S service(Class<S> kind, Function<? super RuntimeContext, ? extends S> create);

	/** Completes once the runtime has closed; fails with what kept it from closing cleanly. */
	Mono<Void> onClose();
}
