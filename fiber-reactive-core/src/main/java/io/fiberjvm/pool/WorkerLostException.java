package io.fiberjvm.pool;

/**
 * A pool task did not finish because the worker running it was lost: the process died (killed, out of
 * memory, crashed), its connection dropped, or it stopped answering keep-alives.
 *
 * <p>The task may or may not have run, in part or in full. A pool re-runs it only when its function
 * is declared idempotent and the retry spec allows another attempt.
 */
public final class WorkerLostException extends TaskException {

	private static final long serialVersionUID = 1L;

	public WorkerLostException(String task, String worker, String why) {
		super("task " + task + " was lost with worker " + worker + ": " + why, task, worker, null);
	}
}
