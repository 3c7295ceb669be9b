package io.fiberjvm.manager;

import io.fiberjvm.FiberException;

/**
 * A call on a managed object did not complete because its manager was restarted ({@link AsyncManager#restart()})
 * while the call was pending: the object's state was reset. It was made again, in the new process, from its
 * constructor arguments, and later calls on it run there.
 */
public final class ManagerRestartedException extends FiberException {

	private static final long serialVersionUID = 1L;

	public ManagerRestartedException(String message) {
		super(message);
	}
}
