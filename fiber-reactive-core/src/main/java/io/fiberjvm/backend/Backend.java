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

	/** Starts a job; emits once the backend has accepted it. */
	Mono<Job> create(JobSpec spec);

	/** Ends every job this backend started and releases what it holds. */
	@Override
	void close();
}
