package io.fiberjvm.manager;

import io.fiberjvm.Fiber;

/**
 * A {@link Manager} that also hosts objects of registered classes; {@link #create} returns a proxy of an async interface whose
 * methods send the call at once and return its result as a {@code Mono} (or {@code Flux}): the handle of
 * Python Fiber's {@code AsyncManager}.
 *
 * <p>The contract:
 * <ul>
 * <li>Calls on one object run one at a time, in the order they were made (the order the proxy's
 * methods were invoked). Calls on different objects, in this manager or another, run in parallel.</li>
 * <li>A call is sent when the proxy method is invoked, not when the Mono is subscribed; the Mono
 * replays the result to every subscriber. Results arrive on the connection's thread: do not block
 * there ({@code publishOn} first). A result of 1 MiB or more is decoded, and arrives, on a
 * {@code boundedElastic} worker instead, so it may complete after a later call's smaller result.</li>
 * <li>A method returning {@code Flux} streams: the implementation returns a {@code Publisher}, an
 * {@code Iterable}, a {@code Stream} or an array, which the manager reads only as the subscriber asks
 * (a few hundred elements ahead at most), between the object's later calls, and stops reading when the
 * subscriber cancels. A {@code Collection} or array is copied when the call runs. The Flux may be
 * subscribed once; until it is, the call stays pending (in {@code stats()}) and the manager keeps what the
 * method returned. If the manager is lost, the elements that arrived are delivered, then
 * {@link ManagerLostException}.</li>
 * <li>An exception thrown by the object arrives as the Mono's error, a {@link io.fiberjvm.RemoteException}
 * with the remote type, message and stack trace.</li>
 * <li>When the manager process ends (killed, crashed, closed) or its connection is lost, pending calls
 * fail with {@link ManagerLostException}, and so do later ones.</li>
 * <li>Arguments and results travel as {@link io.fiberjvm.codec.ShippedValues}: compact numbers,
 * strings and primitive arrays, Java serialization behind the allow-list for the rest.</li>
 * </ul>
 * Closing the {@link Fiber} stops every manager it started.
 */
public interface AsyncManager extends Manager {

	/** A manager to configure and start on {@code fiber}: {@code AsyncManager.on(fiber).register(Env.class, CartPole.class).start()}. */
	static ManagerCall on(Fiber fiber) {
		return ManagerCall.of(fiber);
	}

	/**
	 * Creates an object of the class registered for {@code asyncInterface}, with the public constructor
	 * that takes {@code args}, and returns its proxy at once. If the constructor fails, every call on
	 * the proxy fails with that error.
	 *
	 * @throws IllegalArgumentException if {@code asyncInterface} was not registered with this manager
	 */
	<A> A create(Class<A> asyncInterface, Object... args);
}
