package io.fiberjvm.internal.queue;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.internal.frames.CreditFrame;
import io.fiberjvm.internal.frames.QueueItem;
import io.fiberjvm.queue.QueueClosedException;
import io.fiberjvm.queue.QueueStats;

/**
 * The state of one queue, in the process that hosts it: waiting items, consumer and producer sessions,
 * waiting puts. A consumer gets items up to its credit, and none while those it holds unacknowledged come to
 * the bytes it said it would hold ({@link #PREFETCH_BYTES} for {@code receive()}). Every change happens under
 * this object's lock, and so does every emission to a session, which keeps each session's batches in order;
 * completions of callers' Monos run after the lock is released.
 *
 * <p>Consumers get even shares, not shares by speed ({@link FairShares}).
 */
final class QueueHost implements QueueChannel {

	/** A consumer that acknowledges items as it takes them gets no more while it holds this many bytes of them. */
	static final long PREFETCH_BYTES = 64L << 20;

	private final String id;
	private final int capacity;
	private final int grantWindow;
	private final ArrayDeque<QueueItem> waiting = new ArrayDeque<>();
	private final ArrayDeque<PendingPut> waitingPuts = new ArrayDeque<>();
	private final List<QueueConsumer> consumers = new ArrayList<>();
	private final List<QueueProducer> producers = new ArrayList<>();
	private int handedOut;
	private long granted;
	private long puts;
	private long takes;
	private int nextConsumer;
	private final FairShares shares = new FairShares();
	private boolean closed;
	/** Why the queue was ended with its runtime, or null: then everything on it fails at once, saying so. */
	private @Nullable String terminated;
	private final Sinks.Empty<Void> closedSignal = Sinks.empty();
	private final Runnable onRetired;

	QueueHost(String id, int capacity) {
		this(id, capacity, () -> { });
	}

	QueueHost(String id, int capacity, Runnable onRetired) {
		this.id = id;
		this.capacity = capacity;
		this.onRetired = onRetired;
		this.grantWindow = Math.max(1, Math.min(1024, capacity / 2));
	}

	private long free() {
		return capacity - waiting.size() - handedOut - granted;
	}

	@Override
	public boolean emitsOutsideLock() {
		return false;
	}

	@Override
	public Mono<Void> put(QueueItem item) {
		return Mono.create(sink -> {
			List<Runnable> after = new ArrayList<>();
			PendingPut pending = new PendingPut(item, sink);
			synchronized (this) {
				if (closed) {
					after.add(() -> sink.error(closedError()));
				}
				else if (waitingPuts.isEmpty() && free() > 0) {
					waiting.add(pending.item);
					puts++;
					after.add(sink::success);
					dispatch();
				}
				else {
					waitingPuts.add(pending);
				}
			}
			sink.onCancel(() -> {
				synchronized (this) {
					// By identity: two puts of equal items are still two puts, and comparing bytes costs.
					waitingPuts.removeIf(put -> put == pending);
				}
			});
			after.forEach(Runnable::run);
		});
	}

	@Override
	public Flux<Long> send(Flux<List<QueueItem>> batches, java.util.function.Consumer<List<QueueItem>> sent) {
		return Flux.defer(() -> {
			QueueProducer producer = new QueueProducer();
			List<Runnable> after = new ArrayList<>();
			synchronized (this) {
				if (closed) {
					return Flux.error(closedError());
				}
				producers.add(producer);
				admit(after);
			}
			after.forEach(Runnable::run);
			producer.upstream = batches.subscribe(batch -> accept(producer, batch),
					error -> endProducer(producer, error), () -> endProducer(producer, null));
			return producer.grants.asFlux().doOnCancel(() -> {
				producer.upstream.dispose();
				endProducer(producer, new QueueClosedException("the producer cancelled"));
			});
		});
	}

	private void accept(QueueProducer producer, List<QueueItem> batch) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			if (!producers.contains(producer)) {
				return;
			}
			if (batch.size() > producer.granted) {
				endProducer(producer, new IllegalStateException("a producer sent " + batch.size() + " items to queue " + id
						+ " with room granted for " + producer.granted), after);
			}
			else {
				producer.granted -= batch.size();
				granted -= batch.size();
				waiting.addAll(batch);
				puts += batch.size();
				admit(after);
			}
		}
		after.forEach(Runnable::run);
	}

	private void endProducer(QueueProducer producer, @Nullable Throwable error) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			endProducer(producer, error, after);
		}
		after.forEach(Runnable::run);
	}

	private void endProducer(QueueProducer producer, @Nullable Throwable error, List<Runnable> after) {
		if (!producers.remove(producer)) {
			return;
		}
		granted -= producer.granted;
		producer.granted = 0;
		after.add(() -> producer.end(error));
		admit(after);
	}

	@Override
	public Flux<List<QueueItem>> receive(Flux<CreditFrame> credits) {
		return Flux.defer(() -> {
			QueueConsumer consumer = new QueueConsumer();
			synchronized (this) {
				if (terminated != null) {
					return Flux.error(closedError());
				}
				// A consumer joins level with those taking items, neither owed a backlog nor behind them.
				long least = FairShares.leastServed(consumers, FairShares.now(), Long.MAX_VALUE);
				consumer.served = least == Long.MAX_VALUE ? 0 : least;
				consumers.add(consumer);
				completeIfDrained();
			}
			consumer.upstream = credits.subscribe(credit -> control(consumer, credit),
					error -> endConsumer(consumer), () -> endConsumer(consumer));
			return consumer.batches.asFlux().doOnCancel(() -> {
				consumer.upstream.dispose();
				endConsumer(consumer);
			});
		});
	}

	private void control(QueueConsumer consumer, CreditFrame control) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			if (!consumers.contains(consumer)) {
				return;
			}
			long acked = consumer.acknowledge(control, FairShares.now());
			handedOut -= (int) acked;
			takes += acked;
			admit(after);
			completeIfDrained();
		}
		after.forEach(Runnable::run);
	}

	private void endConsumer(QueueConsumer consumer) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			if (!consumers.remove(consumer)) {
				return;
			}
			// Unacknowledged items go back to the front, in the order they were handed out.
			handedOut -= consumer.giveBack(waiting);
			consumer.batches.tryEmitComplete();
			admit(after);
			completeIfDrained();
		}
		after.forEach(Runnable::run);
	}

	/** Its counters now. */
	synchronized QueueStats stats() {
		return new QueueStats(waiting.size(), handedOut, waitingPuts.size(), puts, takes);
	}

	@Override
	public Mono<Integer> size() {
		return Mono.fromCallable(() -> {
			synchronized (this) {
				if (terminated != null) {
					throw closedError();
				}
				return waiting.size();
			}
		});
	}

	/**
	 * Ends the queue with the runtime that hosts it: every waiting put, producer and consumer fails with {@code why},
	 * the items left are dropped (no process can take them any more), and every later operation fails at once.
	 */
	void terminate(String why) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			if (terminated != null) {
				return;
			}
			terminated = why;
			closed = true;
			QueueClosedException error = closedError();
			for (PendingPut put : waitingPuts) {
				after.add(() -> put.sink.error(error));
			}
			waitingPuts.clear();
			for (QueueProducer producer : producers) {
				after.add(() -> producer.end(error));
				after.add(producer.upstream::dispose);
			}
			producers.clear();
			granted = 0;
			for (QueueConsumer consumer : consumers) {
				after.add(() -> consumer.batches.tryEmitError(error));
				after.add(consumer.upstream::dispose);
			}
			consumers.clear();
			waiting.clear();
			handedOut = 0;
		}
		after.forEach(Runnable::run);
		closedSignal.tryEmitEmpty();
	}

	@Override
	public Mono<Void> close() {
		return Mono.fromRunnable(() -> {
			List<Runnable> after = new ArrayList<>();
			synchronized (this) {
				if (closed) {
					return;
				}
				closed = true;
				for (PendingPut put : waitingPuts) {
					after.add(() -> put.sink.error(closedError()));
				}
				waitingPuts.clear();
				for (QueueProducer producer : new ArrayList<>(producers)) {
					producers.remove(producer);
					granted -= producer.granted;
					producer.granted = 0;
					QueueClosedException closedError = closedError();
					after.add(() -> producer.end(closedError));
					after.add(producer.upstream::dispose);
				}
				completeIfDrained();
			}
			after.forEach(Runnable::run);
			closedSignal.tryEmitEmpty();
		});
	}

	@Override
	public Mono<Void> closed() {
		return closedSignal.asMono();
	}

	/** Under the lock, or once it is known closed. */
	private QueueClosedException closedError() {
		String why = terminated;
		return new QueueClosedException("queue " + id + " is closed" + (why == null ? "" : ": " + why));
	}

	/** Under the lock: admits waiting puts, grants room to producers, hands items to consumers. */
	private void admit(List<Runnable> after) {
		while (!closed && !waitingPuts.isEmpty() && free() > 0) {
			PendingPut put = waitingPuts.poll();
			waiting.add(put.item);
			puts++;
			after.add(put.sink::success);
		}
		if (!closed && waitingPuts.isEmpty()) {
			for (QueueProducer producer : producers) {
				long room = free();
				if (room <= 0) {
					break;
				}
				if (producer.granted <= grantWindow / 2) {
					long grant = Math.min(room, grantWindow - producer.granted);
					producer.granted += grant;
					granted += grant;
					// Outside the lock: a grant runs the producer's publisher, which is user code.
					after.add(() -> producer.grant(grant));
				}
			}
		}
		dispatch();
	}

	/** Under the lock: hands waiting items to consumers with credit, as {@link FairShares} shares them. */
	private void dispatch() {
		if (!waiting.isEmpty() && !consumers.isEmpty()) {
			Map<QueueConsumer, List<QueueItem>> batches = new IdentityHashMap<>();
			long now = FairShares.now();
			boolean heldBack = false;
			while (!waiting.isEmpty()) {
				QueueConsumer next = FairShares.leastServedTaker(consumers, nextConsumer);
				if (next == null) {
					break;
				}
				if (FairShares.ahead(next, consumers, now)) {
					heldBack = true;
					break;
				}
				QueueItem item = waiting.poll();
				next.hand(item, now);
				handedOut++;
				batches.computeIfAbsent(next, c -> new ArrayList<>()).add(item);
			}
			// Ties go round the consumers.
			nextConsumer = (nextConsumer + 1) % consumers.size();
			batches.forEach((consumer, batch) -> consumer.batches.tryEmitNext(Collections.unmodifiableList(batch)));
			long due = heldBack ? shares.recheckDue(consumers, now) : Long.MAX_VALUE;
			if (due != Long.MAX_VALUE) {
				// A dispatch completes waiting puts, whose callers' code may block: not on a timer thread.
				Mono.delay(Duration.ofMillis(due - now), Schedulers.boundedElastic()).subscribe(tick -> recheck(due));
			}
		}
		completeIfDrained();
	}

	/** A consumer that held the others back may have stalled since: hand out what waits. */
	private void recheck(long due) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			shares.rechecked(due);
			admit(after);
		}
		after.forEach(Runnable::run);
	}

	/** Closed and nothing left waiting or out: consumers complete, and the queue can be forgotten. */
	private void completeIfDrained() {
		if (closed && waiting.isEmpty() && handedOut == 0) {
			for (QueueConsumer consumer : consumers) {
				consumer.batches.tryEmitComplete();
			}
			if (consumers.isEmpty() && producers.isEmpty()) {
				onRetired.run();
			}
		}
	}

	@Override
	public String toString() {
		return "QueueHost[" + id + ", capacity " + capacity + "]";
	}

	private record PendingPut(QueueItem item, MonoSink<Void> sink) {
	}
}
