package io.fiberjvm.pool;

import io.fiberjvm.FiberException;

/** A pool was used after {@link FiberPool#close()}, or its work was cut short by {@link FiberPool#terminate()}. */
public final class PoolClosedException extends FiberException {

	private static final long serialVersionUID = 1L;

	public PoolClosedException(String message) {
		super(message);
	}
}
