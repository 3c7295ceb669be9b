package io.fiberjvm.internal.queue;

import java.util.List;
import java.util.function.Consumer;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.internal.frames.CreditFrame;
import io.fiberjvm.internal.frames.QueueItem;

/**
 * The byte-level operations of one queue, served by its host: in process ({@link QueueHost}) or over a
 * connection ({@link RemoteChannel}).
 */
interface QueueChannel {

	/** One encoded item; completes when the host holds it. */
	Mono<Void> put(QueueItem item);

	/**
	 * A producer session: batches go up, each only as large as the grants received so far; grants
	 * (numbers of items the host has room for) come down, and the stream completes when the host
	 * holds every item sent before the batches completed. A batch whose bytes are no longer read here (sent to a
	 * host in another process) may be given to {@code sent}, whose caller may then reuse its items' arrays; a
	 * host in this process keeps the items themselves and never gives them.
	 */
	Flux<Long> send(Flux<List<QueueItem>> batches, Consumer<List<QueueItem>> sent);

	/**
	 * A consumer session: credits go up (more items wanted, items acknowledged since the last credit); batches
	 * come down, never more items in all than credited. When the credits end, items handed out and not
	 * acknowledged go back to the queue.
	 */
	Flux<List<QueueItem>> receive(Flux<CreditFrame> credits);

	Mono<Integer> size();

	/**
	 * Whether the batches of {@link #receive} arrive on a thread where user code may run: true for a
	 * connection's thread, false for an in-process host that emits under its lock.
	 */
	boolean emitsOutsideLock();

	/** Refuses further items; completes once the host has closed the queue. */
	Mono<Void> close();

	/** Completes once the queue is closed, whoever closed it. */
	Mono<Void> closed();
}
