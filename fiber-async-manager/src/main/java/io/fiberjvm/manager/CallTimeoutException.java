package io.fiberjvm.manager;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberException;

/**
 * A call on a managed object ran past its deadline ({@link AsyncManager#callTimeout}): the manager interrupted it.
 *
 * <p>When the call stopped, its object takes later calls as before (in whatever state the call left it). When it did
 * not stop within {@code task-timeout-grace}, the object is given up as stuck: later calls on it fail with
 * {@link ObjectStuckException} until the manager is restarted ({@link AsyncManager#restart()}).
 */
public final class CallTimeoutException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final Duration timeout;
	private final boolean stuck;

	/**
	 * @param call the call, as the manager describes it ({@code "step on Env#1 in manager sims"})
	 * @param timeout the deadline it ran past
	 * @param stuck whether it went on past its grace, so its object was given up
	 * @param what what the manager did about it
	 * @param cause the manager's side of the error, or null
	 */
	public CallTimeoutException(String call, Duration timeout, boolean stuck, String what, @Nullable Throwable cause) {
		super(call + " ran past its deadline of " + timeout + ": " + what, cause);
		this.timeout = timeout;
		this.stuck = stuck;
	}

	/** The deadline the call ran past. */
	public Duration timeout() {
		return timeout;
	}

	/** Whether the call did not stop when interrupted, so its object was given up as stuck. */
	public boolean stuck() {
		return stuck;
	}
}
