package io.fiberjvm.backend;

import java.time.Duration;
import java.util.Objects;
import java.util.OptionalLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One running (or ended) job: a child process, a pod.
 *
 * <p>Status changes are driven by events (a process exit, a Kubernetes watch), never by polling.
 */
public interface Job {

	/** The backend's name for the job, unique within a run. */
	String id();

	/** What the job was started from. */
	JobSpec spec();

	/** The operating-system process id, where the job is a local process. */
	OptionalLong pid();

	/** The latest status. */
	JobStatus status();

	/**
	 * The job's status changes, starting with the current one; completes after the terminal status.
	 * Every subscriber sees the latest status first.
	 */
	Flux<JobStatus> statuses();

	/** Asks the job to stop, then kills it after the grace period; completes once it has ended. */
	Mono<Void> terminate();

	/**
	 * Asks the job to stop, then kills it after {@code grace} instead of the backend's grace period; completes once it
	 * has ended. Backends that cannot choose the grace per job use their own ({@link #terminate()}).
	 *
	 * @throws IllegalArgumentException if {@code grace} is negative
	 */
	default Mono<Void> terminate(Duration grace) {
		checkGrace(grace);
		return terminate();
	}

	/**
	 * {@code grace} as {@link #terminate(Duration)} takes it, for implementations to check it the same way.
	 *
	 * @throws IllegalArgumentException if {@code grace} is negative
	 */
	static Duration checkGrace(Duration grace) {
		Objects.requireNonNull(grace, "grace");
		if (grace.isNegative()) {
			throw new IllegalArgumentException("grace " + grace + " is negative; give zero or more");
		}
		return grace;
	}

	/** The job's output so far, line by line. */
	Flux<String> logs();

	/**
	 * The job's output line by line as it is written, completing once the job has ended and all of it is
	 * read. Backends that cannot stream it hand it over when the job ends.
	 */
	default Flux<String> follow() {
		return onTerminal().thenMany(Flux.defer(this::logs));
	}

	/** Completes with the terminal status. */
	default Mono<JobStatus> onTerminal() {
		return statuses().filter(JobStatus::isTerminal).next();
	}
}
