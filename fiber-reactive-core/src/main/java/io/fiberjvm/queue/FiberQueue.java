package io.fiberjvm.queue;

import java.io.Serializable;
import java.util.Optional;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.AsyncCloseable;

/**
 * A bounded queue that many processes put into and take from: the cluster's
 * {@link java.util.concurrent.BlockingQueue}, as Monos and Fluxes.
 *
 * <p>The queue lives in the process that created it (its host). A handle travels to any job-backed
 * process of the same run, captured by a shipped lambda or target, as the host's address, the queue's
 * id and its item type; calls from there go over the run's transport. Items travel through the run's one
 * codec, as pool arguments do: an item another process could not read fails its {@code put} or
 * {@code send}, naming the class and the fix, and nothing is enqueued.
 *
 * <p>What is guaranteed:
 * <ul>
 * <li><b>Capacity.</b> The host holds at most {@link #capacity()} items: those waiting plus those
 * handed to consumers and not yet acknowledged. A producer at capacity waits ({@link #put} and
 * {@link #send} complete later); nothing is dropped and nothing is buffered without end.</li>
 * <li><b>Each item reaches one consumer</b>, and items from one producer (one {@code put} after
 * another, or one {@code send}) are handed out in the order they were put.</li>
 * <li><b>At least once.</b> {@link #receive()} acknowledges an item as it hands it to the subscriber's
 * {@code onNext}, and tells the host once {@code onNext} has returned. So a consumer process that dies
 * while working on an item inside {@code onNext} (in {@code doOnNext}, say, where blocking is allowed)
 * gets that item delivered again; a subscription that ends with an error or a cancel keeps the item it
 * was working on. An operator that queues items ahead of its own work ({@code concatMap},
 * {@code flatMap}, {@code publishOn}) takes them as it queues them. For work that must end before an
 * item counts, use {@link #receiveManualAck(int)}. Items handed to a consumer and not acknowledged
 * when it cancels, fails or dies go back to the front of the queue and are handed out again, so such
 * an item may be seen twice and may then come before later items of its producer.</li>
 * <li><b>Demand is the consumer's.</b> {@link #receive()} asks the host for no more items than its
 * subscriber requested, and never more than its prefetch ahead of what the subscriber acknowledged,
 * and none while those it holds unacknowledged come to 64 MiB (a prefetch of large items does not fill the
 * consumer's memory; {@link #receiveManualAck(int)} has no such limit); items reach the subscriber on a
 * worker of {@link Schedulers#boundedElastic()}, where blocking is allowed, unless the consumer chose a
 * scheduler ({@link #receive(int, Scheduler)}).</li>
 * <li><b>Closing</b> ({@link #close()}, {@link #closeAsync()}) refuses new items; consumers receive what is
 * left and complete once nothing is waiting or handed out unacknowledged. A closed, drained queue is then
 * forgotten by its host. Closing the {@code Fiber} that hosts a queue ends it outright: waiting puts and
 * consumers, and every later operation on it, fail at once with a {@link QueueClosedException} that says so,
 * and the items left are dropped, since no process can take them any more.</li>
 * <li>Items travel through the run's codec as {@link #type()}; an item of another type is refused at
 * {@code put}, and bytes a consumer cannot read fail its {@code receive()} with the item returned to
 * the queue, so nothing is lost.</li>
 * </ul>
 * The host's death loses the queue and fails every pending call on it. A handle also travels inside values
 * (a task's argument or result, a manager call's); to move one by other means, write it with the sending
 * runtime's {@code fiber.runtime().values()} and read it with the receiving runtime's: any other
 * {@code ObjectInputStream} refuses it, since a handle must be bound to the runtime that reads it.
 *
 * @param <T> the type of items
 */
public interface FiberQueue<T> extends AsyncCloseable, Serializable {

	/** The queue's id, unique in its run. */
	String id();

	/** The type items are written and read as. */
	Class<T> type();

	/** The most items the host holds at once. */
	int capacity();

	/** Puts one item; completes once the host holds it, waiting while the queue is full. */
	Mono<Void> put(T item);

	/** Puts every item of {@code items}, in order, as capacity allows; completes when the host holds the last. */
	Mono<Void> send(Publisher<? extends T> items);

	/** Takes one item. */
	Mono<T> take();

	/** Items as the subscriber asks for them, at most 32 ahead of what it has acknowledged. */
	Flux<T> receive();

	/** Items as the subscriber asks for them, at most {@code prefetch} ahead of what it has acknowledged. */
	Flux<T> receive(int prefetch);

	/**
	 * Items as {@link #receive(int)} hands them out, delivered on a worker of {@code scheduler}, one item
	 * after another. {@link Schedulers#immediate()} saves a thread hop per batch, for latency: items from
	 * a queue hosted in another process then reach the subscriber on the connection's network thread,
	 * where the subscriber must not block (Reactor refuses {@code block()} there) and where a slow
	 * {@code onNext} delays every other exchange on that connection. Items from a queue hosted in this
	 * process still reach the subscriber on a {@link Schedulers#boundedElastic()} worker, since the host
	 * hands them out under its lock.
	 */
	Flux<T> receive(int prefetch, Scheduler scheduler);

	/**
	 * Items whose acknowledgement is the subscriber's: each arrives as a {@link Delivery} to
	 * {@link Delivery#ack() ack} when its work is done, even later and on another thread (after a
	 * {@code flatMap}, say). At most {@code prefetch} items are handed out and not acknowledged at once,
	 * whatever their size (choose it for the memory they take); those still open when the subscriber cancels,
	 * fails or dies are delivered again.
	 */
	Flux<Delivery<T>> receiveManualAck(int prefetch);

	/** {@link #receiveManualAck(int)}, delivered on a worker of {@code scheduler}, as {@link #receive(int, Scheduler)} describes. */
	Flux<Delivery<T>> receiveManualAck(int prefetch, Scheduler scheduler);

	/** The number of items waiting for a consumer (not counting those handed out and not yet acknowledged). */
	Mono<Integer> size();

	/**
	 * The queue's counters, read at once, when this process hosts it (it made the queue); empty for a handle
	 * to a queue hosted elsewhere, whose counters live there. For metrics.
	 */
	Optional<QueueStats> localStats();

	/**
	 * Closes the queue when subscribed, for every process of the run: it refuses further items, and consumers
	 * get what is left, then complete. Completes once the host has closed it.
	 */
	@Override
	Mono<Void> closeAsync();

	/**
	 * Completes once the queue is closed, whoever closed it: in the hosting process at once, elsewhere once
	 * the host says so. Fails when the host cannot be reached.
	 */
	@Override
	Mono<Void> onClose();
}
