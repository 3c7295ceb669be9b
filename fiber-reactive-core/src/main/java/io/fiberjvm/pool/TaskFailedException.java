package io.fiberjvm.pool;

import io.fiberjvm.FiberException;
import io.fiberjvm.RemoteException;

/**
 * A pool task's function threw on its worker. The cause is the remote exception, with the remote type,
 * message and stack trace; the worker goes on with other tasks.
 */
public final class TaskFailedException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final String task;
	private final String worker;

	public TaskFailedException(String task, String worker, RemoteException cause) {
		super("task " + task + " failed on worker " + worker + ": " + cause.getMessage(), cause);
		this.task = task;
		this.worker = worker;
	}

	/** The task, as the pool describes it ({@code "element 17 of map(...)"}). */
	public String task() {
		return task;
	}

	/** The worker process the task ran on. */
	public String worker() {
		return worker;
	}

	/** The exception the function threw, as it was in the worker. */
	public RemoteException remote() {
		return (RemoteException) getCause();
	}
}
