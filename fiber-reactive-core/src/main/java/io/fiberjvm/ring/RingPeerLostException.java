package io.fiberjvm.ring;

import io.fiberjvm.FiberException;

/**
 * A collective could not reach a peer: its process has most likely died. A ring reports the member
 * that died rather than the members that lost it, when it can tell.
 */
public final class RingPeerLostException extends FiberException {

	private static final long serialVersionUID = 1L;

	public RingPeerLostException(int peer, Throwable cause) {
		super("ring peer rank " + peer + " cannot be reached: " + cause.getMessage(), cause);
	}
}
