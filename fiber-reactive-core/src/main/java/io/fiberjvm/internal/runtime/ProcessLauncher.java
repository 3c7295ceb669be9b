package io.fiberjvm.internal.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.LogKeys;
import io.fiberjvm.Placement;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobJava;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.internal.frames.TargetFrame;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.transport.Endpoint;

/**
 * Starts a runtime's job-backed processes and keeps the parent's side of each ({@link ProcessSupervisor})
 * until it ends: the child's command line and environment, its job, its target, its output.
 */
final class ProcessLauncher {

	private static final Logger log = LoggerFactory.getLogger(ProcessLauncher.class);

	private final FiberConfig config;
	private final String runId;
	private final String secret;
	private final Backend backend;
	private final ShippedValues values;
	private final JobJava jobJava;
	/** How a child starts on {@link #jobJava}'s class path. */
	private final ChildLaunch launch;
	private final boolean tls;
	/** Every job's placement, from configuration; a call's own is laid over it. */
	private final Placement placement;
	private final List<String> jvmOptions;
	private final @Nullable SharedClassArchive classArchive;
	private final Map<String, ProcessSupervisor> processes = new ConcurrentHashMap<>();
	private final AtomicLong counter = new AtomicLong();
	private final IdleJvms idle;

	/**
	 * @param tls whether this runtime's connections over the network use TLS; its children are told so
	 * @param launch how a child that loads this program's classes and Fiber's is started
	 */
	ProcessLauncher(FiberConfig config, String runId, String secret, Backend backend, ShippedValues values, boolean tls,
			ChildLaunch launch) {
		this.tls = tls;
		this.config = config;
		this.runId = runId;
		this.secret = secret;
		this.backend = backend;
		this.values = values;
		String javaExecutable = config.get(ConfigKeys.JAVA).isEmpty()
				? Path.of(System.getProperty("java.home"), "bin", "java").toString()
				: config.get(ConfigKeys.JAVA);
		this.jobJava = backend.jobJava(new JobJava(javaExecutable, launch.classpath()));
		// Refused here, once the backend has said which class path its jobs start from.
		this.launch = launch.on(jobJava.classpath());
		this.jvmOptions = jvmOptions(config);
		this.placement = placement(config);
		// An idle pod would hold its node's resources from every other pod while it waits: only local JVMs are kept.
		this.idle = new IdleJvms(backend.runsJobsOnThisMachine() ? config.get(ConfigKeys.WORKER_IDLE_TIME) : Duration.ZERO);
		this.classArchive = config.get(ConfigKeys.CLASS_SHARING) && backend.runsJobsOnThisMachine()
				? SharedClassArchive.forClasspath(jobJava.executable(), jvmOptions, jobJava.classpath(),
						SharedClassArchive.Format.forJava(jobJava.executable()), Path.of(System.getProperty("java.io.tmpdir"), "fiber-cds"))
				: null;
	}

	/**
	 * Ships {@code target} (failing at once when it cannot travel), then makes its job once {@code parent}
	 * knows where this runtime listens; emits the process once the job exists.
	 */
	Mono<FiberProcess> start(ProcessTarget target, String name, ResourceSpec resources, Map<String, String> environment,
			Mono<Endpoint> parent) {
		byte[] frame = targetFrame(target, name);
		String jobId = jobIdFor(name);
		return parent.flatMap(address -> launch(address, frame, jobId, name, resources, environment, false));
	}

	/**
	 * As {@link #start}, for a target that may share its JVM with others in turn: it runs in a JVM an earlier such
	 * target with the same resources left idle, if there is one, and otherwise in a new one that stays idle after it.
	 */
	Mono<FiberProcess> startReusable(ProcessTarget target, String name, ResourceSpec resources, Mono<Endpoint> parent) {
		// An idle JVM would hold its GPUs from every other start while it waits.
		if (!idle.keepsJvms() || resources.gpu() > 0) {
			return start(target, name, resources, Map.of(), parent);
		}
		byte[] frame = targetFrame(target, name);
		return Mono.defer(() -> {
			for (IdleJvms.Waiting waiting = idle.take(resources); waiting != null; waiting = idle.take(resources)) {
				TargetRun run = waiting.jvm.nextRun(name);
				if (run != null) {
					log.debug("process '{}' runs in the idle JVM of job {}", name, waiting.jvm.jobId());
					waiting.hand(frame);
					return Mono.just((FiberProcess) run);
				}
			}
			String jobId = jobIdFor(name);
			return parent.flatMap(address -> launch(address, frame, jobId, name, resources, Map.of(), true));
		});
	}

	/** The frame a child fetches its target in; fails at once when the target cannot travel. */
	private byte[] targetFrame(ProcessTarget target, String name) {
		String what = "the target of process '" + name + "'";
		List<String> allow = List.of(ShippedValues.packagePattern(target.getClass()));
		byte[] bytes = values.writeFunction(target, what);
		// Read back here, so a target the child would refuse fails now, before any job exists.
		values.readFunction(bytes, allow, ProcessTarget.class, what);
		return new TargetFrame(allow, bytes).encode();
	}

	private Mono<FiberProcess> launch(Endpoint parent, byte[] target, String jobId, String name, ResourceSpec resources,
			Map<String, String> environment, boolean reusable) {
		SharedClassArchive.Lease archive = classArchive != null ? classArchive.lease() : null;
		// The child that writes the archive does so as it exits: it is not kept for later targets.
		boolean keep = reusable && (archive == null || !archive.writes());
		JobSpec spec;
		try {
			spec = JobSpec.of(jobId, childCommand(parent, jobId, archive == null ? List.of() : archive.options()))
					.withEnvironment(environment)
					.withEnvironment(childEnvironment())
					.withResources(resources.withPlacement(placement.with(resources.placement())))
					.withLabel("fiber-run", runId)
					.withLabel("fiber-process", jobId);
		}
		catch (RuntimeException e) {
			// No child will write the archive: the next one may.
			if (archive != null) {
				archive.release(null);
			}
			return Mono.error(e);
		}
		// The child that writes the archive writes it as it exits, which can outlast the grace: it gets more, so it is not
		// killed half-way and the next run has an archive.
		Duration grace = archive != null && archive.writes() ? config.get(ConfigKeys.TERMINATE_GRACE).plus(SharedClassArchive.WRITE_TIME) : null;
		ProcessSupervisor supervisor = new ProcessSupervisor(name, jobId, target, resources,
				new StartBounds(config.get(ConfigKeys.PENDING_TIMEOUT), config.get(ConfigKeys.START_TIMEOUT)), keep ? idle : null, grace);
		FiberProcess process = keep ? supervisor.firstRun() : supervisor;
		processes.put(jobId, supervisor);
		// The job is attached whatever the caller does, so a cancelled start cannot leave an unknown child.
		Mono<Job> created = backend.create(spec).cache();
		created.subscribe(job -> {
			supervisor.attachJob(job);
			if (config.get(ConfigKeys.CHILD_LOGS).equals("parent")) {
				forwardOutput(name, jobId, job);
			}
			job.onTerminal().subscribe(status -> {
				processes.remove(jobId);
				if (archive != null) {
					archive.release(status.exitCode());
				}
			});
		}, error -> {
			processes.remove(jobId);
			supervisor.failStart(error);
			if (archive != null) {
				archive.release(null);
			}
		});
		return created.map(job -> process)
				.doOnCancel(() -> created.flatMap(Job::terminate).subscribe(done -> { }, error -> { }));
	}

	/** The parent's side of the child named {@code jobId}, while it lives. */
	@Nullable ProcessSupervisor supervisor(String jobId) {
		return processes.get(jobId);
	}

	/** Processes started here that have not ended yet. */
	List<FiberProcess> live() {
		return processes.values().stream().filter(ProcessSupervisor::isAlive).map(FiberProcess.class::cast).toList();
	}

	/** Each known process as {@code fiber ps} shows it. */
	List<RunStatus.Process> status() {
		return processes.values().stream()
				.map(p -> new RunStatus.Process(p.name(), p.jobId(), p.pid().orElse(-1), p.state()))
				.sorted(Comparator.comparing(RunStatus.Process::job))
				.toList();
	}

	/**
	 * Lets idle JVMs exit and terminates every other process, waiting at most {@code wait} for them to end, or
	 * {@link SharedClassArchive#WRITE_TIME} more while the child writing the class archive lives (its own grace is as
	 * much longer); an idle JVM that has not exited within the terminate grace is terminated too.
	 */
	Mono<Void> terminateAll(Duration wait) {
		List<ProcessSupervisor> letGo = idle.closeAll();
		Duration grace = config.get(ConfigKeys.TERMINATE_GRACE);
		List<ProcessSupervisor> all = new ArrayList<>(processes.values());
		// A child writing the class archive has a longer grace, and is waited for as much longer.
		Duration longest = all.stream().anyMatch(p -> p.terminateGrace() != null) ? wait.plus(SharedClassArchive.WRITE_TIME) : wait;
		return Flux.fromIterable(all)
				.flatMap(p -> (letGo.contains(p) ? p.onExit().timeout(grace).then().onErrorResume(e -> p.terminate()) : p.terminate())
						.onErrorResume(e -> Mono.empty()))
				.then()
				.timeout(longest, Mono.empty());
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
		command.add(jobJava.executable());
		// What the class path needs first, so a configured option of the same name wins.
		command.addAll(launch.options());
		command.addAll(archiveOptions);
		command.addAll(jvmOptions);
		// Who the child is, for every log line it writes (LogKeys); configuration does not read these two.
		command.add("-D" + LogKeys.RUN + "=" + runId);
		command.add("-D" + LogKeys.PROCESS + "=" + jobId);
		command.add("-cp");
		command.add(launch.classpath());
		command.add(launch.mainClass());
		command.add(WorkerMain.PROCESS);
		command.add(parent.toString());
		command.add(jobId);
		return command;
	}

	private static Placement placement(FiberConfig config) {
		Placement configured = Placement.none().affinity(config.get(ConfigKeys.AFFINITY))
				.priorityClass(config.get(ConfigKeys.PRIORITY_CLASS)).serviceAccount(config.get(ConfigKeys.SERVICE_ACCOUNT))
				.podTemplate(config.get(ConfigKeys.POD_TEMPLATE));
		for (var pair : config.get(ConfigKeys.NODE_SELECTOR).entrySet()) {
			configured = configured.nodeSelector(pair.getKey(), pair.getValue());
		}
		for (Placement.Toleration toleration : config.get(ConfigKeys.TOLERATIONS)) {
			configured = configured.toleration(toleration);
		}
		for (var pair : config.get(ConfigKeys.POD_LABELS).entrySet()) {
			configured = configured.label(pair.getKey(), pair.getValue());
		}
		for (var pair : config.get(ConfigKeys.POD_ANNOTATIONS).entrySet()) {
			configured = configured.annotation(pair.getKey(), pair.getValue());
		}
		return configured;
	}

	/**
	 * A child's JVM options: the configured ones after the children's defaults, so a configured value wins. Netty's
	 * flight-recorder events are off by default: registering them costs a child a sixth of its start.
	 */
	private static List<String> jvmOptions(FiberConfig config) {
		List<String> options = new ArrayList<>();
		options.add("-Dio.netty.jfr.enabled=false");
		options.addAll(config.get(ConfigKeys.JVM_OPTIONS));
		return List.copyOf(options);
	}

	private Map<String, String> childEnvironment() {
		Map<String, String> env = new LinkedHashMap<>(config.toChildEnvironment());
		if (!backend.runsJobsOnThisMachine()) {
			// On another machine the parent's address and files are not the child's: it listens on its own address
			// (host's default there), and a pod template file stays with the parent.
			env.remove(ConfigKeys.HOST.environmentName());
			env.remove(ConfigKeys.POD_TEMPLATE.environmentName());
		}
		// What this runtime decided, not "auto": a child on this machine of a run that uses TLS must use it too.
		env.put(ConfigKeys.TLS.environmentName(), tls ? "on" : "off");
		env.put(JobSpec.SECRET_ENV, secret);
		return env;
	}

	/** Logs each line the job writes through {@code fiber.child.<name>}, with its identity in the MDC. */
	private void forwardOutput(String name, String jobId, Job job) {
		Logger childLog = LoggerFactory.getLogger("fiber.child." + name);
		job.follow().subscribe(line -> {
			MDC.put(LogKeys.RUN, runId);
			MDC.put(LogKeys.PROCESS, jobId);
			try {
				childLog.info("{}", line);
			}
			finally {
				MDC.remove(LogKeys.RUN);
				MDC.remove(LogKeys.PROCESS);
			}
		}, error -> log.warn("stopped forwarding the output of process '{}': {}", name, error.toString()));
	}
}
