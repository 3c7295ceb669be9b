package io.fiberjvm.pool;

import io.fiberjvm.RemoteException;

/**
 * A pool task's function threw on its worker. The cause is the remote exception, with the remote type,
 * message and stack trace; the worker goes on with other tasks.
 */
public final class TaskFailedException extends TaskException {

	private static final long serialVersionUID = 1L;

	private final RemoteException remote;

	public TaskFailedException(String task, String worker, RemoteException cause) {
		super("task " + task + " failed on worker " + worker + ": " + cause.getMessage(), task, worker, cause);
		this.remote = cause;
	}

	/** The exception the function threw, as it was in the worker. */
	public RemoteException remote() {
		return remote;
	}
}
