package io.fiberjvm.transport;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberException;

/**
 * The server refused this connection at setup: no secret, a wrong secret, or a peer it does not expect.
 */
public final class ConnectionRejectedException extends FiberException {

	private static final long serialVersionUID = 1L;

	public ConnectionRejectedException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}
}
