package io.fiberjvm.internal.share;

import java.io.ObjectStreamException;

import reactor.core.publisher.Mono;

import io.fiberjvm.Shared;

/** A shared value's handle, bound to one runtime's {@link SharedValues}; it travels as a {@link SharedRef}. */
final class SharedHandle<T> implements Shared<T> {

	private static final long serialVersionUID = 1L;

	private final SharedRef ref;
	private final transient SharedValues values;

	SharedHandle(SharedRef ref, SharedValues values) {
		this.ref = ref;
		this.values = values;
	}

	@Override
	public String id() {
		return ref.id;
	}

	@Override
	@SuppressWarnings("unchecked")
	public Mono<T> value() {
		return (Mono<T>) values.value(ref);
	}

	@Override
	public int fetches() {
		return values.fetches(ref.id);
	}

	@Override
	public Mono<Void> release() {
		return values.release(ref.id);
	}

	private Object writeReplace() throws ObjectStreamException {
		return ref;
	}

	@Override
	public String toString() {
		return "Shared[" + ref.id + " of " + ref.owner + "]";
	}
}
