package io.fiberjvm.transport;

import io.fiberjvm.FiberException;

/** A request named a route the receiving side does not serve, in that interaction model. */
public final class UnknownRouteException extends FiberException {

	private static final long serialVersionUID = 1L;

	public UnknownRouteException(String message) {
		super(message);
	}
}
