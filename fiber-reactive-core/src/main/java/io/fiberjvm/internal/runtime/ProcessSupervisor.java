package io.fiberjvm.internal.runtime;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.RemoteException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.internal.frames.EmptyFrame;
import io.fiberjvm.internal.frames.OutcomeFrame;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Routes;

/**
 * The parent's side of one job-backed process: it hands the child its target, records how the target
 * ended and turns the job's exit into {@link #onExit()} and {@link #join()}.
 *
 * <p>A JVM started for a reusable target runs one {@link TargetRun} after another: when a run's target has
 * returned, the child waits among the {@link IdleJvms} for the next target with the same resources instead of
 * exiting.
 */
final class ProcessSupervisor implements FiberProcess {

	private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ProcessSupervisor.class);

	private static final int LOG_LINES_IN_ERRORS = 20;

	private final String name;
	private final String jobId;
	/** The target frame the child asks for. */
	private final byte[] target;
	private final ResourceSpec resources;
	private final StartBounds bounds;
	/** Why a start bound stopped the process, once one has. */
	private volatile @Nullable ProcessFailedException startFailure;
	/** Where this JVM waits between runs; null for a JVM that runs one target and exits. */
	private final @Nullable IdleJvms idle;
	/**
	 * How long a JVM terminated by the parent's users or its closing has to exit before it is killed; null for the
	 * backend's grace. A child that never connected is killed at the backend's grace whatever this says: it has nothing
	 * worth the wait, and an archive it wrote would hold too few classes.
	 */
	private final @Nullable Duration terminateGrace;
	private final Sinks.One<Job> job = Sinks.one();
	private final Sinks.Empty<Void> running = Sinks.empty();
	private volatile @Nullable Job started;
	private volatile @Nullable OutcomeFrame outcome;
	private volatile boolean connected;
	// Guarded by this: the run of a reusable JVM's target, if one is under way, and whether the JVM was told to end or
	// has ended, after which it is neither kept idle nor handed a target.
	private @Nullable TargetRun run;
	private boolean ending;

	ProcessSupervisor(String name, String jobId, byte[] target, ResourceSpec resources, StartBounds bounds,
			@Nullable IdleJvms idle, @Nullable Duration terminateGrace) {
		this.name = name;
		this.jobId = jobId;
		this.target = target;
		this.resources = resources;
		this.bounds = bounds;
		this.idle = idle;
		this.terminateGrace = terminateGrace;
	}

	/** The run of this reusable JVM's first target, running once the child has fetched it. */
	synchronized TargetRun firstRun() {
		TargetRun first = new TargetRun(name, this, running.asMono());
		run = first;
		return first;
	}

	/** A run of the next target in this idle JVM, or null when the JVM has ended; the caller then hands the child the target. */
	synchronized @Nullable TargetRun nextRun(String runName) {
		if (ending) {
			return null;
		}
		TargetRun next = new TargetRun(runName, this, Mono.empty());
		run = next;
		return next;
	}

	void attachJob(Job created) {
		this.started = created;
		job.tryEmitValue(created);
		// A child never placed, or that never connects, is killed after its bound, so it cannot hang a caller.
		// The failure runs onRunning()'s subscribers (a pool starts the next worker): not on the timer's thread.
		bounds.watch(created, running.asMono().then(Mono.just(true)).onErrorReturn(true), "process '" + name + "' (job " + jobId + ")")
				.subscribe(why -> Schedulers.boundedElastic().schedule(() -> {
					ProcessFailedException failure = new ProcessFailedException(name, -1, why, null);
					// Set first: a child fetching its target at this moment is told why it may not run it.
					startFailure = failure;
					// A child that fetched its target at this moment won: it is left running.
					if (running.tryEmitError(failure).isSuccess()) {
						created.terminate().subscribe(done -> { }, error -> log.warn("process '{}' (job {}): {}; stopping it failed: {}",
								name, jobId, why, error.toString()));
					}
					else {
						startFailure = null;
					}
				}));
		// Whenever the job ends before its target started, onRunning() fails; once it started this is a no-op.
		created.onTerminal().subscribe(status -> {
			describeEarlyExit(status).subscribe(running::tryEmitError);
			TargetRun unfinished;
			synchronized (this) {
				ending = true;
				unfinished = run;
				run = null;
			}
			if (idle != null) {
				idle.forget(this);
			}
			if (unfinished != null) {
				unfinished.end(status.exitCode() == null ? -1 : status.exitCode());
			}
		});
	}

	/** The backend could not create the job. */
	void failStart(Throwable error) {
		job.tryEmitError(error);
		running.tryEmitError(error);
	}

	/** The routes this process's child may call; the child is now connected. */
	Router attach() {
		connected = true;
		return Routes.empty()
				.withResponse(ChildProtocol.TARGET, request -> Mono.fromCallable(() -> {
					EmptyFrame.check(request);
					if (running.tryEmitEmpty().isFailure()) {
						// A start bound (or the job's end) came first: the child is not to run its target.
						ProcessFailedException failed = startFailure;
						throw new IllegalStateException("process '" + name + "' (job " + jobId + ") fetched its target after its start "
								+ (failed != null ? "failed: " + failed.getMessage() : "ended"));
					}
					return target;
				}))
				.withResponse(ChildProtocol.OUTCOME, report -> Mono.defer(() -> {
					OutcomeFrame reported = OutcomeFrame.decode(report);
					outcome = reported;
					TargetRun returned = reported.error() == null ? returnedRun() : null;
					if (returned == null) {
						return Mono.just(EmptyFrame.encode());
					}
					// No run is under way now, so terminating the one that returned leaves the JVM alone.
					Mono<byte[]> answer = Mono.just(EmptyFrame.encode());
					synchronized (this) {
						if (!ending && idle != null) {
							// The answer waits for the next target. The JVM is idle before its run ends, so whoever
							// started the run finds it idle once the run has ended.
							answer = idle.keep(this, resources);
						}
					}
					returned.end(0);
					return answer;
				}));
	}

	/** The run whose target has just returned, no longer under way; null for a JVM of one target. */
	private synchronized @Nullable TargetRun returnedRun() {
		TargetRun returned = run;
		run = null;
		return returned;
	}

	private Mono<Throwable> describeEarlyExit(JobStatus status) {
		int code = status.exitCode() == null ? -1 : status.exitCode();
		String when = connected ? " before its target started" : " before it connected back";
		String what = status.killedForMemory() ? "was " + status.message() : status.message();
		return logTail().map(tail -> new ProcessFailedException(name, code, "process '" + name + "' (job " + jobId
				+ ") " + what + when + "; its output ends with:\n" + tail, null, status.killedForMemory()));
	}

	private static final java.time.Duration LOG_READ_LIMIT = java.time.Duration.ofSeconds(15);

	private Mono<String> logTail() {
		Job current = started;
		if (current == null) {
			return Mono.just("(no output)");
		}
		// A backend that cannot hand the output over soon (a cluster's log endpoint, say) must not hold up the error.
		return current.logs().takeLast(LOG_LINES_IN_ERRORS).collect(Collectors.joining("\n"))
				.timeout(LOG_READ_LIMIT)
				.onErrorResume(e -> Mono.just("(output unreadable: " + e.getMessage() + ")"));
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public String jobId() {
		return jobId;
	}

	@Override
	public OptionalLong pid() {
		Job current = started;
		return current == null ? OptionalLong.empty() : current.pid();
	}

	@Override
	public ResourceSpec resources() {
		return resources;
	}

	@Override
	public Mono<Void> onRunning() {
		return running.asMono();
	}

	@Override
	public Mono<Integer> onExit() {
		return job.asMono().flatMap(Job::onTerminal).map(status -> status.exitCode() == null ? -1 : status.exitCode());
	}

	@Override
	public Mono<Void> join() {
		return join(name);
	}

	/** As {@link #join()}, with the failure naming the process {@code processName} (a run's, in a reused JVM). */
	Mono<Void> join(String processName) {
		return job.asMono().flatMap(Job::onTerminal).flatMap(status -> {
			int code = status.exitCode() == null ? -1 : status.exitCode();
			if (code == 0) {
				return Mono.empty();
			}
			ProcessFailedException failedStart = startFailure;
			if (failedStart != null) {
				// Stopped for a start bound: that is why it ended, not the signal that stopped it.
				return Mono.error(new ProcessFailedException(processName, code, String.valueOf(failedStart.getMessage()), null));
			}
			if (status.killedForMemory()) {
				return logTail().flatMap(tail -> Mono.error(new ProcessFailedException(processName, code, "process '" + processName
						+ "' (job " + jobId + ") was " + status.message() + "; its output ends with:\n" + tail, null, true)));
			}
			OutcomeFrame reported = outcome;
			if (reported != null && reported.error() != null) {
				RemoteException remote = RemoteException.decode(reported.error());
				return logTail().flatMap(tail -> Mono.error(new ProcessFailedException(processName, code, "process '" + processName
						+ "' (job " + jobId + ") failed with exit code " + code + ": " + remote.getMessage() + "; its output ends with:\n"
						+ tail, remote)));
			}
			return logTail().flatMap(tail -> Mono.error(new ProcessFailedException(processName, code, "process '" + processName
					+ "' (job " + jobId + ") exited with code " + code + "; its output ends with:\n" + tail, null)));
		});
	}

	@Override
	public Mono<Void> terminate() {
		return Mono.defer(() -> {
			synchronized (this) {
				ending = true;
			}
			return terminateJob();
		});
	}

	/** Terminates the JVM if {@code target} is the run under way in it; nothing once that run has ended. */
	Mono<Void> terminate(TargetRun target) {
		return Mono.defer(() -> {
			synchronized (this) {
				if (run != target) {
					return Mono.empty();
				}
				// In the same hold as the check: a run that ends from now on keeps its JVM out of the idle ones.
				ending = true;
			}
			return terminateJob();
		});
	}

	private Mono<Void> terminateJob() {
		if (idle != null) {
			idle.forget(this);
		}
		Duration grace = terminateGrace;
		return job.asMono().flatMap(j -> grace == null ? j.terminate() : j.terminate(grace));
	}

	/** How long this JVM has to exit once terminated, when it is not the backend's grace. */
	@Nullable Duration terminateGrace() {
		return terminateGrace;
	}

	/**
	 * What {@code fiber ps} shows: creating, unscheduled (waiting for a machine), pending, starting (not connected back yet), running, idle (waiting for its
	 * next target), succeeded or failed.
	 */
	String state() {
		Job current = started;
		if (current == null) {
			return "creating";
		}
		JobStatus.Phase phase = current.status().phase();
		if (phase == JobStatus.Phase.RUNNING && !connected) {
			return "starting";
		}
		if (phase == JobStatus.Phase.RUNNING && idle != null && idle.holds(this)) {
			return "idle";
		}
		return phase.name().toLowerCase(java.util.Locale.ROOT);
	}

	@Override
	public boolean isAlive() {
		Job current = started;
		if (current == null) {
			return true;
		}
		return !current.status().isTerminal();
	}

	@Override
	public Flux<String> logs() {
		return job.asMono().flatMapMany(Job::logs);
	}

	@Override
	public String toString() {
		return "FiberProcess[" + name + ", job " + jobId + "]";
	}
}
