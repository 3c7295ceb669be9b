package io.fiberjvm.manager;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberException;

/**
 * A call on a managed object did not complete because its manager process ended or its connection was lost.
 *
 * <p>When the process ended with an error (it could not start, its target threw, it exited with a code other than
 * 0), the cause is that error: a {@link io.fiberjvm.ProcessFailedException} whose message ends with the last
 * lines the process wrote.
 */
public final class ManagerLostException extends FiberException {

	private static final long serialVersionUID = 1L;

	public ManagerLostException(String message) {
		super(message);
	}

	public ManagerLostException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}
}
