package io.fiberjvm.pool;

import io.fiberjvm.FiberException;

/**
 * A pool's worker processes failed to start so many times in a row that the pool, having no worker, fails its calls.
 *
 * <p>Every call waiting for a worker fails with it, and so does every new call until a worker starts: the pool
 * goes on starting workers after a growing, jittered delay. The cause is the last start's error; for a process
 * that ended, a {@link io.fiberjvm.ProcessFailedException} whose message ends with the last lines the process
 * wrote. How many failed starts in a row the pool bears is the {@code worker-start-failures} key. It is never
 * retried: it is not a task's failure.
 */
public final class WorkerStartException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final String pool;
	private final int failures;

	public WorkerStartException(String pool, int failures, Throwable lastError) {
		super("pool " + pool + " has no worker: " + failures + " worker processes in a row failed to start (fiber.worker-start-failures); the last: "
				+ lastError.getMessage(), lastError);
		this.pool = pool;
		this.failures = failures;
	}

	/** The pool's name. */
	public String pool() {
		return pool;
	}

	/** How many starts in a row had failed when the pool gave up its calls. */
	public int failures() {
		return failures;
	}
}
