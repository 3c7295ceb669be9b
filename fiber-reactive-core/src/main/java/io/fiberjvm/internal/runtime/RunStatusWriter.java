package io.fiberjvm.internal.runtime;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.RunStatus;

/**
 * Keeps a program's run status where {@code fiber ps} reads it: the runs directory's file and whatever
 * the backend publishes (a ConfigMap on Kubernetes). Once {@link #start()}ed it looks at the status once a
 * second, off the caller's threads, from a second after the start (a program's first job does not share the
 * machine with it, nor does a run too short for {@code fiber ps} to show), and hands it to each of the two when
 * it changed since that one last took it. A failure is logged once per
 * destination; the file is tried again at the next tick, a backend that refused after {@link #RETRY_AFTER}
 * at the soonest, so a role without the right does not cost a refused call a second. {@link #close()}
 * stops it and deletes the file.
 */
public final class RunStatusWriter {

	private static final Logger log = LoggerFactory.getLogger(RunStatusWriter.class);

	static final Duration RETRY_AFTER = Duration.ofSeconds(30);

	private final Path dir;
	private final String runId;
	private final Backend backend;
	private final Supplier<RunStatus> status;
	private byte @Nullable [] written;
	private byte @Nullable [] published;
	private long refusedAt;
	private boolean fileWarned;
	private boolean backendWarned;
	private boolean statusWarned;
	/** Set by close(), under the lock: no look starts or writes after it. */
	private boolean closed;
	private reactor.core.@Nullable Disposable ticks;

	public RunStatusWriter(Path dir, String runId, Backend backend, Supplier<RunStatus> status) {
		this.dir = Objects.requireNonNull(dir, "dir");
		this.runId = Objects.requireNonNull(runId, "runId");
		this.backend = Objects.requireNonNull(backend, "backend");
		this.status = Objects.requireNonNull(status, "status");
	}

	/** Starts looking at the status a second from now, then once a second; returns at once. */
	public RunStatusWriter start() {
		// The caller's class loader goes with the start: the scheduler's first thread may be made by it, and later
		// tasks on that thread must see the program's classes as the caller does.
		ClassLoader callers = Thread.currentThread().getContextClassLoader();
		// A timer of the JDK's own: the caller does not pay for loading Reactor's schedulers before its first job.
		java.util.concurrent.CompletableFuture.delayedExecutor(1, java.util.concurrent.TimeUnit.SECONDS).execute(() -> {
			Thread thread = Thread.currentThread();
			ClassLoader own = thread.getContextClassLoader();
			thread.setContextClassLoader(callers);
			try {
				startLooking();
			}
			finally {
				thread.setContextClassLoader(own);
			}
		});
		return this;
	}

	private synchronized void startLooking() {
		if (closed) {
			return;
		}
		ticks = reactor.core.publisher.Flux.interval(Duration.ZERO, Duration.ofSeconds(1), reactor.core.scheduler.Schedulers.boundedElastic())
				.subscribe(tick -> tick());
	}

	/** Looks at the status once. */
	synchronized void tick() {
		if (closed) {
			return;
		}
		RunStatus now;
		byte[] json;
		try {
			now = status.get();
			json = now.toJson();
		}
		catch (RuntimeException | LinkageError e) {
			// A JSON library that cannot start (a version clash) is said once, not left to stop the looking unseen.
			if (!statusWarned) {
				statusWarned = true;
				log.warn("cannot read run {}'s status for fiber ps: {}", runId, e.toString());
			}
			return;
		}
		if (!Arrays.equals(json, written)) {
			try {
				write(json);
				written = json;
			}
			catch (IOException | RuntimeException e) {
				if (!fileWarned) {
					fileWarned = true;
					log.warn("cannot write the run's status to {} (fiber ps --local will not list run {}): {}", dir, runId, e.toString());
				}
			}
		}
		if (!Arrays.equals(json, published) && (refusedAt == 0 || System.nanoTime() - refusedAt >= RETRY_AFTER.toNanos())) {
			try {
				backend.publishStatus(now);
				published = json;
				refusedAt = 0;
			}
			catch (RuntimeException e) {
				refusedAt = System.nanoTime();
				if (!backendWarned) {
					backendWarned = true;
					log.warn("the {} backend cannot publish the run's status (fiber ps will not show run {}'s pools): {}",
							backend.name(), runId, e.toString());
				}
			}
		}
	}

	/** Writes the file again, replacing the previous one at once. */
	private void write(byte[] json) throws IOException {
		java.nio.file.Files.createDirectories(dir);
		Path temporary = dir.resolve(runId + ".json.tmp");
		java.nio.file.Files.write(temporary, json);
		java.nio.file.Files.move(temporary, RunStatus.fileIn(dir, runId), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
				java.nio.file.StandardCopyOption.ATOMIC_MOVE);
	}

	/** Stops looking and deletes the run's file, after any look under way: the run is over. */
	public void close() {
		reactor.core.@Nullable Disposable looking;
		synchronized (this) {
			// Under the lock: a start a second late then sees the writer closed and looks no more.
			closed = true;
			looking = ticks;
		}
		if (looking != null) {
			looking.dispose();
		}
		deleteFile();
	}

	/** Under the lock, so after any look under way. */
	private synchronized void deleteFile() {
		try {
			java.nio.file.Files.deleteIfExists(RunStatus.fileIn(dir, runId));
		}
		catch (IOException e) {
			log.debug("could not delete the run's status file: {}", e.toString());
		}
	}
}
