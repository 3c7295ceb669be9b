package io.fiberjvm.manager;

import java.time.Duration;

import reactor.core.publisher.Mono;

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
 * fail with {@link ManagerLostException}, and so do later ones; unless the manager was started with a
 * {@link ManagerRestarts} policy with a restart left: then it is restarted as {@link #restart()} does, pending calls
 * fail with {@link ManagerRestartedException} saying why, and later calls run in the new process.</li>
 * <li>A call may have a deadline ({@link ManagerCall#callTimeout}, {@link #callTimeout}), counted from when it starts
 * running: past it the manager interrupts the call, which fails with {@link CallTimeoutException}. A call that does
 * not stop within {@code task-timeout-grace} (default 5 s) of its interrupt fails all the same, and its object is
 * given up as stuck: its calls queued and later fail at once with {@link ObjectStuckException}, the manager's other
 * objects go on, and {@link #restart()} makes every object again in a fresh process. Calls returning {@code Flux}
 * have no deadline: cancel their subscription.</li>
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

	/**
	 * A view of this manager whose {@link #create} makes objects whose calls, their creation included, each have
	 * {@code timeout} as their deadline ({@code Duration.ZERO} for none); everything else is this manager's. Objects
	 * created before keep theirs.
	 *
	 * @throws IllegalArgumentException if {@code timeout} is negative or longer than a JVM can time
	 */
	AsyncManager callTimeout(Duration timeout);

	/**
	 * Replaces the manager's process with a fresh one when subscribed, and completes once it takes calls: the way
	 * back from an object given up as stuck. The old process is stopped; every object whose proxy is still reachable
	 * is made again in the new one, in the order they were created, from the registration and constructor arguments
	 * it was created with (the manager keeps a copy of those while the proxy is reachable, so a large constructor
	 * argument is held twice: pass large data through a method call instead), so proxies go on working.
	 * Calls pending when the restart begins fail with {@link ManagerRestartedException}, their {@code Flux} calls
	 * included; calls made while it runs, and demand for their sequences, wait for the new process. Shared objects
	 * ({@link #map} and the like) are not kept: handles taken before the new process is ready reach the old one and
	 * fail; take new ones once the restart completes. {@link #stats()} counts calls across restarts; its shared-call
	 * figures are the process's own, from 0 again once the new one reports. A restart asked for while another runs
	 * joins it; one asked for once it completed is a new one. A manager that was closed or lost cannot be restarted
	 * (it fails with {@link ManagerLostException}). If the new process cannot start, the Mono fails with why, and that is a
	 * loss: the manager's {@link ManagerRestarts} policy restarts it again if it has a restart left (calls made meanwhile
	 * wait for that process), else the manager is lost with that error.
	 */
	Mono<Void> restart();
}
