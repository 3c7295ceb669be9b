package io.fiberjvm.queue;

import java.io.InvalidObjectException;
import java.io.ObjectStreamException;
import java.io.Serializable;

/**
 * What a queue handle is on its way to another process: where the host listens, the queue's id, its item
 * type and capacity. Read back, it becomes a handle of the runtime that is reading it.
 *
 * @param host the host's transport address, {@code host:port}
 * @param queueId the queue's id
 * @param typeName the item type's class name
 * @param capacity the queue's capacity
 */
record QueueRef(String host, String queueId, String typeName, int capacity) implements Serializable {

	private Object readResolve() throws ObjectStreamException {
		QueueContext context = QueueContext.current();
		if (context == null) {
			throw new InvalidObjectException("a FiberQueue handle (queue " + queueId + ") can only be read by a Fiber runtime");
		}
		try {
			return context.queues().handle(this);
		}
		catch (RuntimeException e) {
			InvalidObjectException invalid = new InvalidObjectException("cannot read queue " + queueId + ": " + e.getMessage());
			invalid.initCause(e);
			throw invalid;
		}
	}
}
