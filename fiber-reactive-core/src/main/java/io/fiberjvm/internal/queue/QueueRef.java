package io.fiberjvm.internal.queue;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.runtime.HandleRef;
import io.fiberjvm.runtime.RuntimeContext;

/**
 * What a queue handle is on its way to another process: where the host listens, the queue's id, its item type
 * and capacity. The reading runtime turns it into a handle of its own, local when it hosts the queue.
 */
final class QueueRef implements HandleRef {

	private static final long serialVersionUID = 1L;

	/** The host's transport address, {@code host:port}. */
	final String host;
	final String queueId;
	/** The item type's class name. */
	final String typeName;
	final int capacity;

	QueueRef(String host, String queueId, String typeName, int capacity) {
		this.host = host;
		this.queueId = queueId;
		this.typeName = typeName;
		this.capacity = capacity;
	}

	@Override
	public Object resolve(RuntimeContext reader) {
		return QueueService.of(reader).handle(this);
	}

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		if (!ShippedValues.resolvesHandles(in)) {
			throw new InvalidObjectException("a FiberQueue handle (queue " + in.readFields().get("queueId", "?")
					+ ") can only be read by a Fiber runtime, through its RuntimeContext.values()");
		}
		in.defaultReadObject();
	}
}
