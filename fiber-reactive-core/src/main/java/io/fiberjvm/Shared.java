package io.fiberjvm;

import java.io.Serializable;

import reactor.core.publisher.Mono;

/**
 * A value sent once to each JVM that uses it, not once per task: what {@link Fiber#share} returns. The handle is
 * small and serializable; capture it in tasks and lambdas, put it in queue items, pass it to managers.
 *
 * <p>The first {@link #value()} in a JVM fetches the value's bytes from the JVM that shared it, in parts and as
 * fast as the fetcher takes them (so many JVMs fetching at once do not multiply the sharer's memory), decodes
 * them once and keeps the value: every later call in that JVM, from any task, gets the same object, so treat it
 * as read-only. In the JVM that shared it, {@code value()} is the object that was shared. {@link #release()} in
 * the sharing JVM forgets the bytes and tells every JVM that fetched them to drop its copy; elsewhere it drops
 * that JVM's copy. Values are also dropped when their run ends. A fetch after the release fails with a
 * {@link FiberException} naming the value.
 *
 * @param <T> the value's type
 */
public interface Shared<T> extends Serializable {

	/** The value's id in its run. */
	String id();

	/** The value: this JVM's copy, fetched and decoded the first time it is asked for here. */
	Mono<T> value();

	/**
	 * The value, waiting for it to be fetched the first time: for code that already runs on a thread of its own,
	 * such as a pool task or a manager's object. Fails as {@link #value()} does, and at once on a thread that
	 * must not block (a connection's, or Reactor's parallel scheduler): there, use {@link #value()}.
	 */
	default T get() {
		T value = value().block();
		if (value == null) {
			throw new FiberException("shared value " + id() + " completed without a value");
		}
		return value;
	}

	/** How many JVMs have fetched the value, as the JVM that shared it counts; 0 in every other JVM. */
	int fetches();

	/** Forgets the value (see the class description); completes when every JVM that fetched it was told. */
	Mono<Void> release();
}
