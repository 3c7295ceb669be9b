package io.fiberjvm.pool;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A pool task ran past its deadline ({@link FiberPool#taskTimeout}): its worker interrupted it, and replaced its own
 * JVM when the task did not stop within {@code task-timeout-grace}.
 *
 * <p>The task may have run in part. A pool re-runs it only when the retry spec's filter accepts this error; the
 * default retry does not.
 */
public final class TaskTimeoutException extends TaskException {

	private static final long serialVersionUID = 1L;

	private final Duration timeout;

	/**
	 * @param task the task, as the pool describes it
	 * @param worker the worker that ran it
	 * @param timeout the deadline it ran past
	 * @param what what the worker did about it ({@code "it was interrupted and stopped"})
	 * @param cause the worker's side of the error, or null
	 */
	public TaskTimeoutException(String task, String worker, Duration timeout, String what, @Nullable Throwable cause) {
		super("task " + task + " ran past its deadline of " + timeout + " on worker " + worker + ": " + what, task, worker,
				cause);
		this.timeout = timeout;
	}

	/** The deadline the task ran past. */
	public Duration timeout() {
		return timeout;
	}
}
