package io.fiberjvm;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.util.function.Supplier;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.codec.Codec;
import io.fiberjvm.queue.FiberPipe;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.pool.PoolBuilder;
import io.fiberjvm.pool.PoolService;
import io.fiberjvm.queue.QueueContext;
import io.fiberjvm.queue.QueueService;
import io.fiberjvm.backend.BackendProvider;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.config.ConfigException;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.spi.Providers;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Transport;
import io.fiberjvm.transport.TransportProvider;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;
import io.fiberjvm.worker.ShippedTarget;
import io.fiberjvm.worker.WorkerMain;
import io.fiberjvm.worker.WorkerRoutes;

/**
 * The runtime of one run: what a program opens to use job-backed processes, and closes when done.
 *
 * <p>It is an instance, not a global: a program may open several, each with its own configuration,
 * backend, secret and listening port. Nothing listens until the first process is started. Closing it
 * terminates every process it started and stops listening.
 *
 * <pre>{@code
 * try (Fiber fiber = Fiber.open()) {
 *     fiber.process(() -> System.out.println("hello from a child JVM"))
 *          .name("hello")
 *          .start()
 *          .flatMap(FiberProcess::join)
 *          .block();
 * }
 * }</pre>
 */
public final class Fiber implements AutoCloseable {

	private static final SecureRandom RANDOM = new SecureRandom();
	private static final int DEFAULT_CAPACITY = 1024;

	private final FiberConfig config;
	private final String runId;
	private final String secret;
	private final Backend backend;
	private final Transport transport;
	private final Mono<TransportServer> server;
	private final Map<String, ProcessSupervisor> processes = new ConcurrentHashMap<>();
	private final AtomicLong counter = new AtomicLong();
	private final AtomicBoolean closed = new AtomicBoolean();
	private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(Fiber.class);

	private final Sinks.Empty<Void> onClose = Sinks.empty();
	private volatile TransportServer bound;
	private final String openedAt = java.time.Instant.now().toString();
	/** Keeps this run's status for {@code fiber ps}; null for a runtime that joined a run. */
	private final RunStatusWriter statusFiles;
	private final String name;
	private final QueueService queues;
	private final PoolService pools = new PoolService();
	private final Map<String, Router> services = new ConcurrentHashMap<>();
	private final io.fiberjvm.codec.ShippedValues values;
	private final AtomicLong poolCounter = new AtomicLong();
	private final Map<Endpoint, Mono<Connection>> connections = new ConcurrentHashMap<>();
	private final String javaExecutable;
	private final SharedClassArchive classArchive;
	private final String bindHost;
	private volatile String advertisedHost;

	Fiber(FiberConfig config) {
		this(config, newSecret(), null);
	}

	private Fiber(FiberConfig config, String secret, String name) {
		this.config = Objects.requireNonNull(config, "config");
		this.secret = Objects.requireNonNull(secret, "secret");
		this.runId = Long.toString(RANDOM.nextLong() >>> 38, 36);
		this.name = name != null ? name : "run-" + runId;
		this.values = new io.fiberjvm.codec.ShippedValues(config.get(ConfigKeys.SERIAL_ALLOW));
		this.queues = new QueueService(new Context());
		this.transport = Providers.select(TransportProvider.class, config.get(ConfigKeys.TRANSPORT),
				ConfigKeys.TRANSPORT.name(), "Add io.fiberjvm:fiber-rsocket-transport to the classpath.")
				.create(TransportSettings.from(config, secret));
		this.backend = Providers.select(BackendProvider.class, config.get(ConfigKeys.BACKEND),
				ConfigKeys.BACKEND.name(), "The local backend ships with fiber-reactive-core.").create(config);
		this.javaExecutable = config.get(ConfigKeys.JAVA).isEmpty()
				? Path.of(System.getProperty("java.home"), "bin", "java").toString()
				: config.get(ConfigKeys.JAVA);
		this.classArchive = config.get(ConfigKeys.CLASS_SHARING) && backend.runsJobsOnThisMachine()
				? SharedClassArchive.forClasspath(javaExecutable, System.getProperty("java.class.path"),
						Path.of(System.getProperty("java.io.tmpdir"), "fiber-cds"))
				: null;
		// Jobs on other machines cannot reach loopback: listen everywhere unless told where.
		String host = !backend.runsJobsOnThisMachine() && config.sourceOf(ConfigKeys.HOST).equals("default")
				? "0.0.0.0" : config.get(ConfigKeys.HOST);
		this.bindHost = host;
		Endpoint bindAt = new Endpoint(host, config.get(ConfigKeys.PORT));
		this.server = Mono.defer(() -> closed.get() ? Mono.error(closedError("listen")) : transport.bind(bindAt, this::accept))
				.doOnNext(s -> {
					bound = s;
					if (closed.get()) {
						s.dispose();
					}
				})
				// A failed bind (say, a fixed port in use) is tried again next time, not remembered.
				.cache(s -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO, () -> Duration.ZERO);
		// A program's runtime (not one a child joins) keeps its run's status for fiber ps.
		statusFiles = name == null ? new RunStatusWriter(RunStatus.directory(config), runId, backend, this::status).start() : null;
	}

	/** Logs each line the job writes through {@code fiber.child.<name>}, with its identity in the MDC. */
	private void forwardOutput(String name, String jobId, io.fiberjvm.backend.Job job) {
		org.slf4j.Logger childLog = org.slf4j.LoggerFactory.getLogger("fiber.child." + name);
		job.follow().subscribe(line -> {
			org.slf4j.MDC.put(LogKeys.RUN, runId);
			org.slf4j.MDC.put(LogKeys.PROCESS, jobId);
			try {
				childLog.info("{}", line);
			}
			finally {
				org.slf4j.MDC.remove(LogKeys.RUN);
				org.slf4j.MDC.remove(LogKeys.PROCESS);
			}
		}, error -> log.warn("stopped forwarding the output of process '{}': {}", name, error.toString()));
	}

	/** The counters of this runtime's listening server: connections, rejections, bytes; zeros before it listens. */
	public io.fiberjvm.transport.TransportStats transportStats() {
		TransportServer listening = bound;
		return listening == null ? io.fiberjvm.transport.TransportStats.NONE : listening.stats();
	}

	/** This run as {@code fiber ps --local} shows it: its processes, pools and their workers now. */
	public RunStatus status() {
		List<RunStatus.Process> shown = processes.values().stream()
				.map(p -> new RunStatus.Process(p.name(), p.jobId(), p.pid().orElse(-1), p.state()))
				.sorted(java.util.Comparator.comparing(RunStatus.Process::job))
				.toList();
		return new RunStatus(runId, ProcessHandle.current().pid(), backend.name(), openedAt, shown, pools.status());
	}

	/**
	 * The host others reach this runtime at: the one configured, else the bound one, else (for a
	 * wildcard) this machine's address, found once, when first needed.
	 */
	private String advertisedHost() {
		String known = advertisedHost;
		if (known == null) {
			known = advertisedHost(config.get(ConfigKeys.ADVERTISE_HOST), bindHost);
			advertisedHost = known;
		}
		return known;
	}

	private static String advertisedHost(String configured, String bound) {
		if (!configured.isEmpty()) {
			return configured;
		}
		if (!bound.equals("0.0.0.0") && !bound.equals("::") && !bound.equals("[::]")) {
			return bound;
		}
		try {
			// In a pod the host name resolves to the pod's IP; elsewhere it may resolve to loopback.
			java.net.InetAddress named = java.net.InetAddress.getLocalHost();
			if (!named.isLoopbackAddress()) {
				return named.getHostAddress();
			}
			for (java.net.NetworkInterface nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
				if (!nic.isUp() || nic.isLoopback()) {
					continue;
				}
				for (java.net.InetAddress address : java.util.Collections.list(nic.getInetAddresses())) {
					if (address instanceof java.net.Inet4Address && !address.isLinkLocalAddress()) {
						return address.getHostAddress();
					}
				}
			}
			return named.getHostAddress();
		}
		catch (java.io.IOException e) {
			throw new ConfigException(ConfigKeys.ADVERTISE_HOST.name(), "this runtime listens on every interface (" + bound
					+ ") but this machine's own address cannot be found (" + e.getMessage()
					+ "); set configuration key 'advertise-host' to the address its jobs should reach it at");
		}
	}

	/** Where others reach the server: its port at the advertised host. */
	private Endpoint advertised(TransportServer listening) {
		return new Endpoint(advertisedHost(), listening.address().port());
	}

	private static String newSecret() {
		byte[] random = new byte[32];
		RANDOM.nextBytes(random);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
	}

	/**
	 * A runtime that joins an existing run: it shares the run's secret, so it can reach queues and
	 * processes of that run and they can reach it. Every job-backed process opens one of these
	 * (named after its job); a program that joins a run started elsewhere may too.
	 *
	 * @param name the name this runtime gives when it connects to others
	 */
	public static Fiber joinRun(FiberConfig config, String secret, String name) {
		Objects.requireNonNull(secret, "secret");
		Objects.requireNonNull(name, "name");
		return new Fiber(config, secret, name);
	}

	/** Opens a runtime configured from system properties, the environment and {@code ./.fiberconfig}. */
	public static Fiber open() {
		return builder().open();
	}

	/** A builder whose values win over every other configuration source. */
	public static FiberBuilder builder() {
		return FiberBuilder.standard();
	}

	/** The resolved configuration; children receive it too. */
	public FiberConfig config() {
		return config;
	}

	/** The name of the backend in use, for example {@code local}. */
	public String backendName() {
		return backend.name();
	}

	/** A short id of this run; it prefixes every job id. */
	public String runId() {
		return runId;
	}

	/** The transport this run's connections use, to serve and call routes of one's own. */
	public Transport transport() {
		return transport;
	}

	/** Whether the job-backed processes this runtime starts run on this machine and share its cores (the local backend). */
	public boolean jobsRunOnThisMachine() {
		return backend.runsJobsOnThisMachine();
	}

	/** Where this run listens for its children; binds on first use. Fails once the runtime is closed. */
	public Mono<Endpoint> address() {
		return Mono.defer(() -> closed.get() ? Mono.error(closedError("listen")) : server.map(this::advertised));
	}

	/** A queue hosted by this runtime, holding at most 1024 items; see {@link FiberQueue}. */
	public <T> FiberQueue<T> queue(Class<T> type) {
		return queue(type, DEFAULT_CAPACITY);
	}

	/**
	 * A queue hosted by this runtime, holding at most {@code capacity} items. It is made at once,
	 * binding this runtime's server if it does not listen yet.
	 */
	public <T> FiberQueue<T> queue(Class<T> type, int capacity) {
		if (closed.get()) {
			throw closedError("make a queue");
		}
		return queues.create(type, capacity);
	}

	/** A duplex pipe: each end sends to the other; see {@link FiberPipe}. */
	public <T> FiberPipe<T> pipe(Class<T> type) {
		return pipe(type, true);
	}

	/** A pipe; one-way when {@code duplex} is false ({@link FiberPipe#left()} receives, {@link FiberPipe#right()} sends). */
	public <T> FiberPipe<T> pipe(Class<T> type, boolean duplex) {
		FiberQueue<T> leftToRight = queue(type);
		return FiberPipe.over(leftToRight, duplex ? queue(type) : null);
	}

	/**
	 * A connection to the runtime of this run listening at {@code endpoint}: made on first use,
	 * authenticated with the run's secret, and shared by every caller until it closes.
	 */
	public Mono<Connection> connectionTo(Endpoint endpoint) {
		Objects.requireNonNull(endpoint, "endpoint");
		return Mono.defer(() -> {
			if (closed.get()) {
				return Mono.error(closedError("connect to " + endpoint));
			}
			return connections.computeIfAbsent(endpoint, e -> {
				Mono<Connection>[] self = new Mono[1];
				// Evicts only itself: a newer connection to the same peer stays.
				self[0] = transport.connect(e, name, routesFor(null))
						.doOnNext(c -> c.onClose().subscribe(null, null, () -> connections.remove(e, self[0])))
						.doOnError(error -> connections.remove(e, self[0]))
						.cache();
				return self[0];
			});
		});
	}

	/**
	 * A new connection to the runtime of this run listening at {@code endpoint}, authenticated with the
	 * run's secret and shared with no one: the caller disposes it.
	 */
	public Mono<Connection> dedicatedConnectionTo(Endpoint endpoint) {
		Objects.requireNonNull(endpoint, "endpoint");
		return Mono.defer(() -> closed.get() ? Mono.error(closedError("connect to " + endpoint))
				: transport.connect(endpoint, name, routesFor(null)));
	}

	/**
	 * Runs {@code action} with this runtime reading the objects it deserializes: queue handles in a
	 * shipped target become handles of this runtime.
	 */
	public <T> T resolvingHandles(Supplier<T> action) {
		return QueueContext.resolving(queues.context(), action);
	}

	/** A process that will run {@code target}, a serializable lambda or object. */
	public ProcessCall process(FiberRunnable target) {
		Objects.requireNonNull(target, "target");
		return new ProcessCall(this, target, "process", ResourceSpec.of(target.getClass()));
	}

	/** A process that will create {@code targetClass} with its no-argument constructor and run it. */
	public ProcessCall process(Class<? extends Runnable> targetClass) {
		Objects.requireNonNull(targetClass, "targetClass");
		return new ProcessCall(this, targetClass, targetClass.getSimpleName(), ResourceSpec.of(targetClass));
	}

	/**
	 * A ring of {@code size} job-backed members that run one function with ranks and collectives
	 * (barrier, broadcast, all-reduce, gather); see {@link io.fiberjvm.ring.Ring}.
	 */
	public io.fiberjvm.ring.Ring ring(int size) {
		if (closed.get()) {
			throw closedError("make a ring");
		}
		return io.fiberjvm.ring.Ring.of(this, size);
	}

	/**
	 * A pool of {@code workers} worker processes, to configure and {@link PoolBuilder#open() open}:
	 * {@code fiber.pool(4).initializer(...).open()}.
	 */
	public PoolBuilder pool(int workers) {
		if (closed.get()) {
			throw closedError("make a pool");
		}
		return PoolBuilder.of(this, pools, workers, "pool" + poolCounter.incrementAndGet());
	}

	/**
	 * Serves the routes that start with {@code prefix} ({@code fiber.<name>/}) with {@code router}, to
	 * every peer that proved the run's secret: how modules beside core (managers, say) offer their
	 * services to the processes of a run. Disposing the result stops serving them.
	 */
	public reactor.core.Disposable serve(String prefix, Router router) {
		Objects.requireNonNull(prefix, "prefix");
		Objects.requireNonNull(router, "router");
		if (!prefix.matches("fiber\\.[a-z][a-z0-9-]*/") || QueueService.serves(prefix) || PoolService.serves(prefix)) {
			throw new IllegalArgumentException("a service prefix is 'fiber.<name>/' and not one of core's own; not '" + prefix + "'");
		}
		if (services.putIfAbsent(prefix, router) != null) {
			throw new IllegalStateException("routes '" + prefix + "' are already served by this Fiber");
		}
		return () -> services.remove(prefix, router);
	}

	/** Processes started by this runtime that have not ended yet. */
	public List<FiberProcess> liveProcesses() {
		return processes.values().stream().filter(ProcessSupervisor::isAlive).map(FiberProcess.class::cast).toList();
	}

	/** Completes once {@link #close()} has finished. */
	public Mono<Void> onClose() {
		return onClose.asMono();
	}

	Mono<FiberProcess> launch(String name, ShippedTarget target, ResourceSpec resources, Map<String, String> environment) {
		if (closed.get()) {
			return Mono.error(closedError("start process '" + name + "'"));
		}
		String jobId = jobIdFor(name);
		return server.flatMap(s -> {
			SharedClassArchive.Lease archive = classArchive != null ? classArchive.lease() : null;
			JobSpec spec = JobSpec.of(jobId, childCommand(advertised(s), jobId, archive == null ? List.of() : archive.options()))
					.withEnvironment(environment)
					.withEnvironment(childEnvironment())
					.withResources(resources)
					.withLabel("fiber-run", runId)
					.withLabel("fiber-process", jobId);
			ProcessSupervisor supervisor = new ProcessSupervisor(name, jobId, target, resources,
					config.get(ConfigKeys.START_TIMEOUT));
			processes.put(jobId, supervisor);
			// The job is attached whatever the caller does, so a cancelled start cannot leave an unknown child.
			Mono<io.fiberjvm.backend.Job> created = backend.create(spec).cache();
			created.subscribe(job -> {
				supervisor.attachJob(job);
				if (config.get(ConfigKeys.CHILD_LOGS).equals("parent")) {
					forwardOutput(name, jobId, job);
				}
				job.onTerminal().subscribe(status -> {
					processes.remove(jobId);
					if (archive != null) {
						archive.release();
					}
				});
			}, error -> {
				processes.remove(jobId);
				supervisor.failStart(error);
				if (archive != null) {
					archive.release();
				}
			});
			return created.map(job -> (FiberProcess) supervisor)
					.doOnCancel(() -> created.flatMap(io.fiberjvm.backend.Job::terminate).subscribe(done -> { }, error -> { }));
		});
	}

	private FiberException closedError(String what) {
		return new FiberException("this Fiber (run " + runId + ") is closed; cannot " + what);
	}

	private String jobIdFor(String name) {
		String clean = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]+", "-").replaceAll("^-+|-+$", "");
		if (clean.isEmpty()) {
			clean = "process";
		}
		if (clean.length() > 40) {
			clean = clean.substring(0, 40).replaceAll("-+$", "");
		}
		return clean + "-" + runId + "-" + counter.incrementAndGet();
	}

	private List<String> childCommand(Endpoint parent, String jobId, List<String> archiveOptions) {
		List<String> command = new ArrayList<>();
		command.add(javaExecutable);
		command.addAll(archiveOptions);
		command.addAll(config.get(ConfigKeys.JVM_OPTIONS));
		// Who the child is, for every log line it writes (LogKeys); configuration does not read these two.
		command.add("-D" + LogKeys.RUN + "=" + runId);
		command.add("-D" + LogKeys.PROCESS + "=" + jobId);
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(WorkerMain.class.getName());
		command.add("process");
		command.add(parent.toString());
		command.add(jobId);
		return command;
	}

	private Map<String, String> childEnvironment() {
		Map<String, String> env = new java.util.LinkedHashMap<>(config.toChildEnvironment());
		env.put(WorkerRoutes.SECRET_ENV, secret);
		return env;
	}

	/** Any peer that proved the run's secret may use this runtime's queues; its own children get their routes too. */
	private Router accept(Connection peer) {
		ProcessSupervisor supervisor = processes.get(peer.peerName());
		return routesFor(supervisor == null ? null : supervisor.attach(peer));
	}

	private Router routesFor(Router own) {
		Router service = queues.router();
		Router pooled = pools.router();
		Router rest = own != null ? own : Router.none();
		return new Router() {
			private Router pick(String route) {
				if (QueueService.serves(route)) {
					return service;
				}
				if (PoolService.serves(route)) {
					return pooled;
				}
				int slash = route.indexOf('/');
				Router module = slash < 0 ? null : services.get(route.substring(0, slash + 1));
				return module != null ? module : rest;
			}

			@Override
			public Mono<byte[]> requestResponse(String route, byte[] data) {
				return pick(route).requestResponse(route, data);
			}

			@Override
			public Flux<byte[]> requestStream(String route, byte[] data) {
				return pick(route).requestStream(route, data);
			}

			@Override
			public Flux<byte[]> requestChannel(String route, org.reactivestreams.Publisher<byte[]> data) {
				return pick(route).requestChannel(route, data);
			}

			@Override
			public Mono<Void> fireAndForget(String route, byte[] data) {
				return pick(route).fireAndForget(route, data);
			}
		};
	}

	/** What this runtime's queues need from it. */
	private final class Context implements QueueContext {

		@Override
		public Endpoint localAddress() {
			TransportServer listening = bound;
			if (listening != null && !closed.get()) {
				// Already listening: no blocking, so a queue can be made on any thread.
				return advertised(listening);
			}
			return address().block(config.get(ConfigKeys.START_TIMEOUT));
		}

		@Override
		public Mono<Connection> connectionTo(Endpoint endpoint) {
			return Fiber.this.connectionTo(endpoint);
		}

		@Override
		public Mono<Connection> dedicatedConnectionTo(Endpoint endpoint) {
			return Fiber.this.dedicatedConnectionTo(endpoint);
		}

		@Override
		public Codec codec() {
			return Codec.smile();
		}

		@Override
		public int maxFrameSize() {
			return Math.toIntExact(config.get(ConfigKeys.MAX_FRAME_SIZE));
		}

		@Override
		public FiberConfig config() {
			return config;
		}

		@Override
		public io.fiberjvm.codec.ShippedValues values() {
			return values;
		}

		@Override
		public QueueService queues() {
			return queues;
		}

		@Override
		public reactor.core.Disposable serve(String prefix, Router router) {
			return Fiber.this.serve(prefix, router);
		}
	}

	/**
	 * Terminates every process this runtime started (waiting at most the terminate grace plus a few
	 * seconds), stops listening and closes the backend. Idempotent.
	 */
	@Override
	public void close() {
		if (reactor.core.scheduler.Schedulers.isInNonBlockingThread()) {
			throw new IllegalStateException("Fiber.close() waits for child processes to end, which a non-blocking thread ("
					+ Thread.currentThread().getName() + ") must not do; close it from another thread, e.g. with "
					+ "Mono.fromRunnable(fiber::close).subscribeOn(Schedulers.boundedElastic())");
		}
		if (!closed.compareAndSet(false, true)) {
			return;
		}
		pools.terminateAll();
		try {
			Duration wait = config.get(ConfigKeys.TERMINATE_GRACE).plusSeconds(5);
			Flux.fromIterable(new ArrayList<>(processes.values()))
					.flatMap(p -> p.terminate().onErrorResume(e -> Mono.empty()))
					.then()
					.block(wait);
		}
		catch (RuntimeException timedOut) {
			// the backend kills whatever is left below
		}
		finally {
			try {
				connections.values().forEach(c -> c.subscribe(Connection::dispose, error -> { }));
				connections.clear();
				TransportServer listening = bound;
				if (listening != null) {
					listening.dispose();
				}
				backend.close();
			}
			finally {
				if (statusFiles != null) {
					statusFiles.close();
				}
				onClose.tryEmitEmpty();
			}
		}
	}

	@Override
	public String toString() {
		return "Fiber[run " + runId + ", backend " + backend.name() + "]";
	}
}
