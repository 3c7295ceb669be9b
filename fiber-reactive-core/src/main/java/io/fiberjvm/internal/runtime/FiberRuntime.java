package io.fiberjvm.internal.runtime;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberException;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.BackendProvider;
import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.runtime.HandleRef;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Transport;
import io.fiberjvm.transport.TransportProvider;
import io.fiberjvm.transport.TransportSettings;
import io.fiberjvm.transport.TransportStats;

/**
 * The runtime of one process of a run, which every service plugs into: a program's own (behind
 * {@link io.fiberjvm.Fiber}) or a job-backed process's, joined with the run's secret. It composes where the
 * runtime listens ({@link Listener}), its connections to peers ({@link PeerConnections}), the routes it serves
 * ({@link ServedRoutes}) and the processes it starts ({@link ProcessLauncher}).
 */
public final class FiberRuntime implements RuntimeContext {

	private static final SecureRandom RANDOM = new SecureRandom();
	private static final Logger log = LoggerFactory.getLogger(FiberRuntime.class);

	private final FiberConfig config;
	private final String runId;
	private final String name;
	private final @Nullable Endpoint parent;
	private final Backend backend;
	private final ShippedValues values;
	private final Listener listener;
	private final PeerConnections peers;
	private final ServedRoutes routes = new ServedRoutes();
	private final ProcessLauncher launcher;
	private final Map<Class<?>, Object> services = new ConcurrentHashMap<>();
	private final AtomicBoolean closed = new AtomicBoolean();
	private final AtomicBoolean released = new AtomicBoolean();
	private final Sinks.Empty<Void> onClose = Sinks.empty();

	private FiberRuntime(FiberConfig config, String secret, @Nullable String name, @Nullable Endpoint parent) {
		this.config = Objects.requireNonNull(config, "config");
		Objects.requireNonNull(secret, "secret");
		this.runId = Long.toString(RANDOM.nextLong() >>> 38, 36);
		this.name = name != null ? name : "run-" + runId;
		this.parent = parent;
		List<String> allow = new ArrayList<>(config.get(ConfigKeys.SERIAL_ALLOW));
		allow.addAll(config.get(ConfigKeys.PROGRAM_PACKAGES));
		this.values = new ShippedValues(allow, read -> read instanceof HandleRef handle ? handle.resolve(this) : read,
				config.get(ConfigKeys.MAX_VALUE_SIZE));
		ChildLaunch launch = ChildLaunch.of(FiberRuntime.class.getClassLoader(), ChildLaunch.jdkApplicationLoader(),
				System.getProperties());
		this.backend = Providers.select(BackendProvider.class, config.get(ConfigKeys.BACKEND),
				ConfigKeys.BACKEND.name(), "The local backend ships with fiber-reactive-core.").create(config);
		// A runtime that cannot be made (no transport on the class path, a program no child could load) leaves
		// nothing of itself open.
		try {
			// TLS where connections leave this machine (jobs elsewhere, or a listener beyond loopback), unless configured
			// otherwise; children are told what was decided.
			String tlsSetting = config.get(ConfigKeys.TLS);
			boolean tls = tlsSetting.equals("on") || tlsSetting.equals("auto")
					&& (!backend.runsJobsOnThisMachine() || !isLoopback(config.get(ConfigKeys.HOST)));
			Transport transport = Providers.select(TransportProvider.class, config.get(ConfigKeys.TRANSPORT),
					ConfigKeys.TRANSPORT.name(), "Add io.fiberjvm:fiber-rsocket-transport to the classpath.")
					.create(TransportSettings.from(config, secret, tls));
			this.launcher = new ProcessLauncher(config, runId, secret, backend, values, tls, launch);
			this.listener = new Listener(transport, config, backend.runsJobsOnThisMachine(), peer -> {
				// Any peer that proved the run's secret reaches the services; a child of this runtime its own routes too.
				ProcessSupervisor child = launcher.supervisor(peer.peerName());
				return routes.forPeer(child == null ? null : child.attach());
			}, closed::get, this::closedError);
			this.peers = new PeerConnections(transport, this.name, routes.forPeer(null), closed::get, this::closedError);
		}
		catch (RuntimeException | Error failed) {
			try {
				backend.close();
			}
			catch (RuntimeException alsoFailed) {
				failed.addSuppressed(alsoFailed);
			}
			throw failed;
		}
	}

	private static boolean isLoopback(String host) {
		return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
	}

	/** A program's runtime: a new run, with a secret of its own. */
	public static FiberRuntime open(FiberConfig config) {
		// A program decides its package tree for the whole run; its children, and programs that join, inherit it.
		return new FiberRuntime(ProgramPackages.decide(config), newSecret(), null, null);
	}

	/**
	 * A runtime that joins a run: it shares the run's secret, so it reaches that run's services and they reach it.
	 *
	 * @param name the name it gives the peers it connects to
	 * @param parent where the parent of this job-backed process listens, or null for a program that joins
	 */
	public static FiberRuntime join(FiberConfig config, String secret, String name, @Nullable Endpoint parent) {
		return new FiberRuntime(config, Objects.requireNonNull(secret, "secret"), Objects.requireNonNull(name, "name"), parent);
	}

	private static String newSecret() {
		byte[] random = new byte[32];
		RANDOM.nextBytes(random);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public String runId() {
		return runId;
	}

	@Override
	public FiberConfig config() {
		return config;
	}

	@Override
	public Mono<Endpoint> address() {
		return listener.address();
	}

	@Override
	public Optional<Endpoint> parentAddress() {
		return Optional.ofNullable(parent);
	}

	@Override
	public Mono<Connection> connectionTo(Endpoint endpoint) {
		return peers.shared(endpoint);
	}

	@Override
	public Mono<Connection> dedicatedConnectionTo(Endpoint endpoint) {
		return peers.dedicated(endpoint);
	}

	@Override
	public Disposable serve(String prefix, Router router) {
		if (closed.get()) {
			throw closedError("serve routes '" + prefix + "'");
		}
		return routes.serve(prefix, router);
	}

	@Override
	public Mono<FiberProcess> start(ProcessTarget target, String name, ResourceSpec resources, Map<String, String> environment) {
		Objects.requireNonNull(target, "target");
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(resources, "resources");
		Objects.requireNonNull(environment, "environment");
		return Mono.defer(() -> closed.get() ? Mono.error(closedError("start process '" + name + "'"))
				: launcher.start(target, name, resources, environment, listener.address()));
	}

	@Override
	public Mono<FiberProcess> startReusable(ProcessTarget target, String name, ResourceSpec resources) {
		Objects.requireNonNull(target, "target");
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(resources, "resources");
		return Mono.defer(() -> closed.get() ? Mono.error(closedError("start process '" + name + "'"))
				: launcher.startReusable(target, name, resources, listener.address()));
	}

	@Override
	public boolean jobsRunOnThisMachine() {
		return backend.runsJobsOnThisMachine();
	}

	@Override
	public ShippedValues values() {
		return values;
	}

	@Override
	public int maxFrameSize() {
		return Math.toIntExact(config.get(ConfigKeys.MAX_FRAME_SIZE));
	}

	@Override
	public <S> S service(Class<S> kind, Function<? super RuntimeContext, ? extends S> create) {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(create, "create");
		Object known = services.get(kind);
		if (known != null) {
			return kind.cast(known);
		}
		// Made outside the map, so a service's factory may ask for another service.
		Object made = Objects.requireNonNull(create.apply(this), "a service");
		Object raced = services.putIfAbsent(kind, made);
		if (raced != null) {
			// Another thread made one first: that one is the service, this one is never used.
			dispose(made);
			return kind.cast(raced);
		}
		if (closed.get()) {
			// Made while or after the runtime closed, perhaps after closing looked: closed too, it refuses what it would serve.
			dispose(made);
		}
		return kind.cast(made);
	}

	private void dispose(Object service) {
		if (service instanceof Disposable disposable) {
			try {
				disposable.dispose();
			}
			catch (RuntimeException e) {
				// One service's failure must not keep the others, the processes and the port open.
				log.warn("run {}: closing {} failed", runId, service, e);
			}
		}
	}

	/** The backend jobs run on. */
	public Backend backend() {
		return backend;
	}

	/** Processes started here that have not ended yet. */
	public List<FiberProcess> liveProcesses() {
		return launcher.live();
	}

	/** Each known process as {@code fiber ps} shows it. */
	public List<RunStatus.Process> processStatus() {
		return launcher.status();
	}

	/** The listening server's counters: connections, rejections, bytes; zeros before it listens. */
	public TransportStats transportStats() {
		return listener.stats();
	}

	/** Whether closing has begun. */
	public boolean isClosed() {
		return closed.get();
	}

	/** The error for {@code what} (a verb phrase: "make a queue") once the runtime is closed. */
	public FiberException closedError(String what) {
		return new FiberException(closedMessage(what));
	}

	/** The message of {@link #closedError}, for an error of a more telling type. */
	public String closedMessage(String what) {
		return "this Fiber (run " + runId + ") is closed; cannot " + what;
	}

	/**
	 * Closes when subscribed: disposes its disposable services (pools end first), terminates every process it
	 * started (waiting at most the terminate grace plus a few seconds, {@link SharedClassArchive#WRITE_TIME} more while
	 * the child writing the class archive lives; the backend kills what is left), stops
	 * listening and closes its connections and its backend. Completes once closed, or fails with what kept the
	 * listener or the backend from closing (a service whose disposal throws is logged, and the rest still close);
	 * idempotent.
	 */
	public Mono<Void> closeAsync() {
		return Mono.defer(() -> {
			if (closed.compareAndSet(false, true)) {
				new ArrayList<>(services.values()).forEach(this::dispose);
				Duration wait = config.get(ConfigKeys.TERMINATE_GRACE).plusSeconds(5);
				Mono<Void> release = Mono.fromRunnable(this::release);
				launcher.terminateAll(wait)
						// Releasing may block (a backend's API calls); a scheduler shut down already leaves it to this thread.
						.then(release.subscribeOn(Schedulers.boundedElastic())
								.onErrorResume(RejectedExecutionException.class, rejected -> released.get() ? Mono.error(rejected) : release))
						.subscribe(null, this::closeFailed, onClose::tryEmitEmpty);
			}
			return onClose.asMono();
		});
	}

	private void release() {
		if (!released.compareAndSet(false, true)) {
			return;
		}
		try {
			peers.closeAll();
			listener.close();
		}
		finally {
			backend.close();
		}
	}

	private void closeFailed(Throwable error) {
		log.warn("run {}: closing did not finish cleanly", runId, error);
		onClose.tryEmitError(error);
	}

	@Override
	public Mono<Void> onClose() {
		return onClose.asMono();
	}

	@Override
	public String toString() {
		return "FiberRuntime[run " + runId + ", " + name + ", backend " + backend.name() + "]";
	}
}
