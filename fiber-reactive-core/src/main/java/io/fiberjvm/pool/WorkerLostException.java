package io.fiberjvm.pool;

import io.fiberjvm.FiberException;

/**
 * A pool task did not finish because the worker running it was lost: the process died (killed, out of
 * memory, crashed), its connection dropped, or it stopped answering keep-alives.
 *
 * <p>The task may or may not have run, in part or in full. A pool re-runs it only when its function
 * is declared idempotent and the retry spec allows another attempt.
 */
public final class WorkerLostException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final String task;
	private final String worker;

	public WorkerLostException(String task, String worker, String why) {
		super("task " + task + " was lost with worker " + worker + ": " + why);
		this.task = task;
		this.worker = worker;
	}

	/** The task, as the pool describes it ({@code "element 17 of map(...)"}). */
	public String task() {
		return task;
	}

	/** The worker process that was lost. */
	public String worker() {
		return worker;
	}
}
