package io.fiberjvm.queue;

import io.fiberjvm.FiberException;

/** An item was offered to a queue that is closed, or waited for room in it when it closed. */
public final class QueueClosedException extends FiberException {

	private static final long serialVersionUID = 1L;

	public QueueClosedException(String message) {
		super(message);
	}
}
