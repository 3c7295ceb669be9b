package io.fiberjvm.manager;

import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.runtime.HandleRef;
import io.fiberjvm.runtime.RuntimeContext;

/**
 * What a shared-object handle is on its way to another process: its manager, where the manager serves its
 * shared objects, and the object's kind and name. The reading runtime turns it into a handle of its own.
 */
final class SharedRef implements HandleRef {

	private static final long serialVersionUID = 1L;

	private final String manager;
	private final String address;
	private final String prefix;
	private final String kind;
	private final String name;

	SharedRef(String manager, String address, String prefix, String kind, String name) {
		this.manager = manager;
		this.address = address;
		this.prefix = prefix;
		this.kind = kind;
		this.name = name;
	}

	@Override
	public Object resolve(RuntimeContext reader) {
		SharedAddress shared = new SharedAddress(manager, address, prefix, reader);
		return switch (kind) {
			case SharedMap.KIND -> new SharedMap<>(shared, name);
			case SharedList.KIND -> new SharedList<>(shared, name);
			case SharedValue.KIND -> new SharedValue<>(shared, name);
			case SharedCounter.KIND -> new SharedCounter(shared, name);
			case SharedQueue.KIND -> new SharedQueue<>(shared, name);
			default -> throw new IllegalArgumentException("no kind of shared object called '" + kind + "'");
		};
	}

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		if (!ShippedValues.resolvesHandles(in)) {
			throw new InvalidObjectException("a shared object's handle (in manager " + in.readFields().get("manager", "?")
					+ ") can only be read by a Fiber runtime, through its RuntimeContext.values()");
		}
		in.defaultReadObject();
	}
}
