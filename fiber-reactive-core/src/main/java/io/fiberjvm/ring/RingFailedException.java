package io.fiberjvm.ring;

import io.fiberjvm.FiberException;

/**
 * A ring member failed (its target threw, or its process died), so the ring did: names the member's
 * rank; the cause carries the remote error and its stack trace when there is one.
 */
public final class RingFailedException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final int rank;

	public RingFailedException(int rank, String message, Throwable cause) {
		super(message, cause);
		this.rank = rank;
	}

	/** The rank of the member that failed. */
	public int rank() {
		return rank;
	}
}
