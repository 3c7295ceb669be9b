package io.fiberjvm.codec;

import io.fiberjvm.FiberException;

/**
 * A value the codec cannot write, or bytes it cannot read as the type asked for.
 *
 * <p>The message names the type and, where known, the route the bytes came on.
 */
public final class CodecException extends FiberException {

	private static final long serialVersionUID = 1L;

	public CodecException(String message, Throwable cause) {
		super(message, cause);
	}

	public CodecException(String message) {
		super(message);
	}
}
