package io.fiberjvm.internal.share;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.runtime.HandleRef;
import io.fiberjvm.runtime.RuntimeContext;

/** What a shared value's handle is on its way to another process: where its owner listens, and its id. */
final class SharedRef implements HandleRef {

	private static final long serialVersionUID = 1L;

	/** The owner's transport address, {@code host:port}. */
	final String owner;
	final String id;

	SharedRef(String owner, String id) {
		this.owner = owner;
		this.id = id;
	}

	@Override
	public Object resolve(RuntimeContext reader) {
		return SharedValues.of(reader).handle(this);
	}

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		if (!ShippedValues.resolvesHandles(in)) {
			throw new InvalidObjectException("a Shared handle (value " + in.readFields().get("id", "?")
					+ ") can only be read by a Fiber runtime, through its RuntimeContext.values()");
		}
		in.defaultReadObject();
	}
}
