package io.fiberjvm.manager;

import io.fiberjvm.FiberException;

/** A call on a managed object did not complete because its manager process ended or its connection was lost. */
public final class ManagerLostException extends FiberException {

	private static final long serialVersionUID = 1L;

	public ManagerLostException(String message) {
		super(message);
	}
}
