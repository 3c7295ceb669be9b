package io.fiberjvm.transport;

import io.fiberjvm.FiberException;

/** A payload larger than the payload limit ({@code fiber.max-value-size} and room for its frame); it was not sent. */
public final class FrameTooLargeException extends FiberException {

	private static final long serialVersionUID = 1L;

	public FrameTooLargeException(String message) {
		super(message);
	}
}
