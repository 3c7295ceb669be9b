package io.fiberjvm;

import org.jspecify.annotations.Nullable;

/**
 * The root of every error that Fiber raises itself.
 *
 * <p>Errors that happened in another process arrive as {@link RemoteException}, a subclass,
 * so one {@code catch (FiberException e)} covers local and remote failures alike.
 */
public class FiberException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public FiberException(String message) {
		super(message);
	}

	public FiberException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}
}
