package io.fiberjvm.manager;

import java.time.Duration;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.AsyncCloseable;
import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;

/**
 * A job-backed process that hosts shared objects (maps, lists, values, counters, queues) for every
 * process of the run its handles are handed to. Every operation returns a Mono; each handle has a
 * {@code blocking()} view as a thin convenience.
 *
 * <p>What is atomic: each single operation on one object (including {@code compute} on a map and
 * {@code update} on a value, which run a shipped function in the manager under the object's lock).
 * Sequences of operations are not. Values travel as copies, nested ones included: a list you got from
 * a map is yours; change it and put it back (or use {@code compute}). Objects are made on first use,
 * by kind and name; the same name in two processes is the same object, and nothing is ever released
 * (a manager lives as long as its run). Handles work in every job-backed process they reach: shipped
 * targets, pool functions and arguments, arguments to managed objects. Operations are lazy: nothing is
 * sent until the Mono is subscribed, and each subscription runs the operation again. A
 * {@link SharedQueue}'s items are delivered at most once. Values travel through the run's one codec
 * (see {@code ShippedValues}): a class outside the run's allow-list is refused at the call that sends it,
 * naming the {@code fiber.serial-allow} pattern to add.
 */
public interface Manager extends AsyncCloseable, Disposable {

	/** A manager to configure and start on {@code fiber}. */
	static ManagerCall on(Fiber fiber) {
		return ManagerCall.of(fiber);
	}

	/** The manager's name; its process is named after it. */
	String name();

	/** The process hosting the objects. */
	FiberProcess process();

	<K, V> SharedMap<K, V> map(String name);

	<T> SharedList<T> list(String name);

	<T> SharedValue<T> value(String name);

	SharedCounter counter(String name);

	<T> SharedQueue<T> queue(String name);

	/**
	 * Its call counters now: calls through async proxies (creations included), and the calls its process
	 * served on shared objects as last reported (at most a second old while calls go on).
	 */
	ManagerStats stats();

	/**
	 * Each call's time from sending to its answer (or its loss with the manager), as calls end: a hot
	 * {@code Flux} that sees only calls ending while it is subscribed, emitted on the network thread that
	 * read the answer, so a subscriber must be quick. For metrics (a Micrometer timer, say).
	 */
	Flux<Duration> callLatencies();

	/**
	 * Stops the manager when subscribed: pending and later calls fail with {@link ManagerLostException}, and
	 * its process is terminated; completes once the process has ended. {@link #close()} does the same and waits.
	 */
	@Override
	Mono<Void> closeAsync();

	/** Starts closing, as {@link #closeAsync()} does, and returns at once. */
	@Override
	void dispose();

	/** Whether the manager was closed or lost: it takes no more calls. */
	@Override
	boolean isDisposed();

	/** Completes once the manager process has ended. */
	@Override
	Mono<Void> onClose();
}
