package io.fiberjvm.manager;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberException;

/**
 * A call on a managed object failed at once: an earlier call on the object ran past its deadline and did not stop
 * when interrupted, so the manager gave the object up. Restarting the manager ({@link AsyncManager#restart()})
 * makes the object again, and its calls work.
 */
public final class ObjectStuckException extends FiberException {

	private static final long serialVersionUID = 1L;

	/**
	 * @param call the call refused, as the manager describes it
	 * @param why what the manager said of the object
	 * @param cause the manager's side of the error, or null
	 */
	public ObjectStuckException(String call, String why, @Nullable Throwable cause) {
		super("cannot run " + call + ": " + why, cause);
	}
}
