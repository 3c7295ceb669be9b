package io.fiberjvm.backend;

import reactor.core.publisher.Mono;

/**
 * Starts jobs: child JVMs on this machine, or pods on a cluster.
 *
 * <p>A backend does not do networking: a job finds its parent through the address in its command
 * and environment. Closing a backend ends every job it started.
 */
public interface Backend extends AutoCloseable {

	/** The provider name of this backend, for example {@code local}. */
	String name();

	/**
	 * Whether jobs run on this machine, so they reach their parent over loopback. When they do not, a
	 * runtime whose {@code host} is not set listens on every interface and gives its jobs its own
	 * address ({@code advertise-host}), and jobs get no class-data archive from this machine.
	 */
	default boolean runsJobsOnThisMachine() {
		return true;
	}

	/**
	 * Publishes a run's status where this backend's tools read it ({@code fiber ps} on a cluster). A
	 * program's runtime calls it off the caller's threads each time the status changes, at most once a
	 * second, while it is open; a failure is the runtime's to report. The local backend has nothing to
	 * do: {@code fiber ps --local} reads the runs directory.
	 */
	default void publishStatus(RunStatus status) {
	}

	/**
	 * The java executable and classpath a job's JVM starts with, given the parent's own: a backend whose jobs run on
	 * this machine keeps them; one whose jobs run from an image gives the image's.
	 */
	default JobJava jobJava(JobJava parents) {
		return parents;
	}

	/** Starts a job; emits once the backend has accepted it. */
	Mono<Job> create(JobSpec spec);

	/** Ends every job this backend started and releases what it holds. */
	@Override
	void close();
}
