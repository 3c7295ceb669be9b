package io.fiberjvm.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;

/**
 * Runs each job as a child process of this JVM: the embedded default, nothing to install.
 *
 * <p>Output goes to a file per job under the log directory. Resources are recorded; GPUs are handed out
 * from {@code fiber.local-gpus} through {@code CUDA_VISIBLE_DEVICES}. A JVM that exits normally kills its
 * children from a shutdown hook; a JVM that is killed leaves it to the children, which exit when their
 * connection to it closes.
 */
final class LocalBackend implements Backend {

	private final Path logDir;
	private final Duration grace;
	private final GpuAllocator gpus;
	private final Set<LocalJob> live = ConcurrentHashMap.newKeySet();
	private final Thread shutdownHook;
	private volatile boolean closed;

	LocalBackend(Path logDir, Duration grace, List<String> gpuIds) {
		this.logDir = Objects.requireNonNull(logDir, "logDir");
		this.grace = Objects.requireNonNull(grace, "grace");
		this.gpus = new GpuAllocator(gpuIds);
		this.shutdownHook = new Thread(() -> live.forEach(LocalJob::kill), "fiber-local-backend-shutdown");
		Runtime.getRuntime().addShutdownHook(shutdownHook);
	}

	@Override
	public String name() {
		return "local";
	}

	@Override
	public Mono<Job> create(JobSpec spec) {
		Objects.requireNonNull(spec, "spec");
		return Mono.<Job>fromCallable(() -> start(spec)).subscribeOn(Schedulers.boundedElastic());
	}

	private LocalJob start(JobSpec spec) throws IOException {
		synchronized (live) {
			if (closed) {
				throw new FiberException("the local backend is closed; job " + spec.name() + " was not started");
			}
			LocalJob job = launch(spec);
			live.add(job);
			return job;
		}
	}

	private LocalJob launch(JobSpec spec) throws IOException {
		ResourceSpec resources = spec.resources();
		List<String> devices = gpus.take(resources.gpu(), spec.name());
		try {
			createPrivateDirectory(logDir);
			Path log = logDir.resolve(spec.name() + ".log");
			createPrivateFile(log);
			ProcessBuilder builder = new ProcessBuilder(withResourceHints(spec.command(), resources));
			Map<String, String> env = builder.environment();
			env.putAll(spec.environment());
			if (resources.gpu() > 0 || gpus.managesAny()) {
				// A job that asked for no GPU must not see the ones this backend hands out to others.
				env.put("CUDA_VISIBLE_DEVICES", String.join(",", devices));
			}
			builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
			LocalJob job = new LocalJob(spec, builder.start(), log, grace, resources.memoryBytes());
			job.onTerminal().subscribe(status -> {
				live.remove(job);
				gpus.release(devices);
			});
			return job;
		}
		catch (IOException | RuntimeException e) {
			gpus.release(devices);
			throw e;
		}
	}

	/** Output may hold whatever a target prints: readable by this user only, where the file system allows. */
	private static void createPrivateDirectory(Path dir) throws IOException {
		if (Files.isDirectory(dir)) {
			return;
		}
		try {
			Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
		}
		catch (UnsupportedOperationException notPosix) {
			Files.createDirectories(dir);
		}
	}

	private static void createPrivateFile(Path file) throws IOException {
		Files.deleteIfExists(file);
		try {
			Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
		}
		catch (UnsupportedOperationException notPosix) {
			Files.createFile(file);
		}
	}

	/** For a java command, sizes the JVM from the resources: cores seen, and memory to size its heap by. */
	private static List<String> withResourceHints(List<String> command, ResourceSpec resources) {
		if (!isJava(command.get(0))) {
			return command;
		}
		List<String> hinted = new ArrayList<>(command.size() + 2);
		hinted.add(command.get(0));
		if (resources.cpu() > 0) {
			hinted.add("-XX:ActiveProcessorCount=" + Math.max(1, (int) Math.ceil(resources.cpu())));
		}
		if (resources.memoryBytes() > 0) {
			// Three quarters of it for the heap, a quarter for the rest (metaspace, code, stacks, direct buffers): the
			// JVM's own default takes a quarter for the heap, which leaves most of what was asked for unused.
			hinted.add("-XX:MaxRAM=" + resources.memoryBytes());
			hinted.add("-XX:MaxRAMPercentage=" + ResourceSpec.HEAP_PERCENT);
			// Over its limit it ends, as a pod over its limit is killed, and LocalJob reports it as killed for memory.
			hinted.add("-XX:+ExitOnOutOfMemoryError");
		}
		hinted.addAll(command.subList(1, command.size()));
		return hinted;
	}

	private static boolean isJava(String executable) {
		String name = Path.of(executable).getFileName().toString();
		return name.equals("java") || name.equals("java.exe");
	}

	/** Jobs still running. */
	int liveJobs() {
		return live.size();
	}

	@Override
	public void close() {
		List<LocalJob> jobs;
		synchronized (live) {
			closed = true;
			jobs = new ArrayList<>(live);
		}
		jobs.forEach(LocalJob::kill);
		for (LocalJob job : jobs) {
			try {
				job.onTerminal().block(grace.plusSeconds(5));
				// Its own end's subscriber removes it too, maybe a moment later on the thread that saw it end.
				live.remove(job);
			}
			catch (RuntimeException stillDying) {
				// killed with SIGKILL already; nothing more to do
			}
		}
		try {
			Runtime.getRuntime().removeShutdownHook(shutdownHook);
		}
		catch (IllegalStateException alreadyShuttingDown) {
			// the hook is running or has run; nothing to remove
		}
	}
}
