package io.fiberjvm.internal.queue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.core.publisher.Operators;
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
 * <p>Consumers get even shares, not shares by speed: an item goes to the consumer with credit that was handed the
 * fewest, and to none that was handed {@link #LEAD} more than the least-served consumer still taking items (one
 * with credit, or holding items and having acknowledged one within {@link #STALL}). So a consumer whose JVM is
 * slowed for a moment is waited for, and one that stops taking items, or holds them longer than that, is not.
 */
final class QueueHost implements QueueChannel {

	/** A consumer that acknowledges items as it takes them gets no more while it holds this many bytes of them. */
	static final long PREFETCH_BYTES = 64L << 20;
	/** How many items more than the least-served consumer still taking items a consumer may have been handed. */
	static final int LEAD = 16;
	/** How long a consumer may hold items without acknowledging one and still hold the others back. */
	static final Duration STALL = Duration.ofMillis(200);

	private final String id;
	private final int capacity;
	private final int grantWindow;
	private final ArrayDeque<QueueItem> waiting = new ArrayDeque<>();
	private final ArrayDeque<PendingPut> waitingPuts = new ArrayDeque<>();
	private final List<Consumer> consumers = new ArrayList<>();
	private final List<Producer> producers = new ArrayList<>();
	private int handedOut;
	private long granted;
	private long puts;
	private long takes;
	private int nextConsumer;
	/** When a dispatch is due because a consumer that holds the others back will count as stalled, in {@link #now()}'s milliseconds. */
	private long recheckAt = Long.MAX_VALUE;
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
			Producer producer = new Producer();
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

	private void accept(Producer producer, List<QueueItem> batch) {
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

	private void endProducer(Producer producer, @Nullable Throwable error) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			endProducer(producer, error, after);
		}
		after.forEach(Runnable::run);
	}

	private void endProducer(Producer producer, @Nullable Throwable error, List<Runnable> after) {
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
			Consumer consumer = new Consumer();
			synchronized (this) {
				if (terminated != null) {
					return Flux.error(closedError());
				}
				// A consumer joins level with those taking items, neither owed a backlog nor behind them.
				long least = leastServed(now(), Long.MAX_VALUE);
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

	private void control(Consumer consumer, CreditFrame control) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			if (!consumers.contains(consumer)) {
				return;
			}
			long acked = Math.min(control.acknowledged(), consumer.handedOut.size());
			for (long i = 0; i < acked; i++) {
				consumer.handedBytes -= consumer.handedOut.remove().size();
			}
			handedOut -= (int) acked;
			takes += acked;
			if (acked > 0) {
				consumer.lastAck = now();
			}
			consumer.credit = Operators.addCap(consumer.credit, control.credit());
			consumer.heldBytes = control.heldBytes();
			admit(after);
			completeIfDrained();
		}
		after.forEach(Runnable::run);
	}

	private void endConsumer(Consumer consumer) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			if (!consumers.remove(consumer)) {
				return;
			}
			// Unacknowledged items go back to the front, in the order they were handed out.
			for (java.util.Iterator<QueueItem> it = consumer.handedOut.descendingIterator(); it.hasNext();) {
				waiting.addFirst(it.next());
			}
			handedOut -= consumer.handedOut.size();
			consumer.handedOut.clear();
			consumer.handedBytes = 0;
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
			for (Producer producer : producers) {
				after.add(() -> producer.end(error));
				after.add(producer.upstream::dispose);
			}
			producers.clear();
			granted = 0;
			for (Consumer consumer : consumers) {
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
				for (Producer producer : new ArrayList<>(producers)) {
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
			for (Producer producer : producers) {
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

	/**
	 * Under the lock: hands waiting items to consumers with credit, each to the least served of them, and none to a
	 * consumer {@link #LEAD} ahead of the least-served consumer still taking items.
	 */
	private void dispatch() {
		if (!waiting.isEmpty() && !consumers.isEmpty()) {
			Map<Consumer, List<QueueItem>> batches = new IdentityHashMap<>();
			long now = now();
			int n = consumers.size();
			boolean heldBack = false;
			while (!waiting.isEmpty()) {
				Consumer next = null;
				for (int i = 0; i < n; i++) {
					Consumer consumer = consumers.get((nextConsumer + i) % n);
					if (consumer.canTake() && (next == null || consumer.served < next.served)) {
						next = consumer;
					}
				}
				if (next == null) {
					break;
				}
				if (next.served >= leastServed(now, next.served) + LEAD) {
					heldBack = true;
					break;
				}
				QueueItem item = waiting.poll();
				if (next.handedOut.isEmpty()) {
					next.lastAck = now;
				}
				next.credit--;
				next.served++;
				next.handedOut.add(item);
				next.handedBytes += item.size();
				handedOut++;
				batches.computeIfAbsent(next, c -> new ArrayList<>()).add(item);
			}
			// Ties go round the consumers.
			nextConsumer = (nextConsumer + 1) % n;
			batches.forEach((consumer, batch) -> consumer.batches.tryEmitNext(Collections.unmodifiableList(batch)));
			if (heldBack) {
				scheduleRecheck(now);
			}
		}
		completeIfDrained();
	}

	/**
	 * Under the lock: the fewest items handed to a consumer still taking items (one with credit, or holding items
	 * and having acknowledged one within {@link #STALL}), or {@code otherwise} when none is.
	 */
	private long leastServed(long now, long otherwise) {
		long least = otherwise;
		for (Consumer consumer : consumers) {
			if (consumer.canTake() || !consumer.handedOut.isEmpty() && now - consumer.lastAck < STALL.toMillis()) {
				least = Math.min(least, consumer.served);
			}
		}
		return least;
	}

	/**
	 * Under the lock: a dispatch when the first consumer now holding the others back (holding items, and not stalled
	 * yet) will count as stalled.
	 */
	private void scheduleRecheck(long now) {
		long first = Long.MAX_VALUE;
		for (Consumer consumer : consumers) {
			long stalls = consumer.lastAck + STALL.toMillis();
			if (!consumer.canTake() && !consumer.handedOut.isEmpty() && stalls > now) {
				first = Math.min(first, stalls);
			}
		}
		if (first != Long.MAX_VALUE && first < recheckAt) {
			long due = first;
			recheckAt = due;
			// A dispatch completes waiting puts, whose callers' code may block: not on a timer thread.
			Mono.delay(Duration.ofMillis(due - now), Schedulers.boundedElastic()).subscribe(tick -> recheck(due));
		}
	}

	/** A consumer that held the others back may have stalled since: hand out what waits. */
	private void recheck(long due) {
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			// Whatever the clock says now: a clock set back must not leave a recheck pending that never comes.
			if (recheckAt == due) {
				recheckAt = Long.MAX_VALUE;
			}
			admit(after);
		}
		after.forEach(Runnable::run);
	}

	/** Closed and nothing left waiting or out: consumers complete, and the queue can be forgotten. */
	private void completeIfDrained() {
		if (closed && waiting.isEmpty() && handedOut == 0) {
			for (Consumer consumer : consumers) {
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

	/**
	 * One producer session. Grants and the end are signalled outside the host's lock, possibly from two
	 * threads at once; a drain loop hands them to the sink one at a time, grants first, without waiting.
	 */
	private static final class Producer {
		final Sinks.Many<Long> grants = Sinks.many().unicast().onBackpressureBuffer();
		final java.util.concurrent.atomic.AtomicLong pendingGrant = new java.util.concurrent.atomic.AtomicLong();
		final java.util.concurrent.atomic.AtomicInteger wip = new java.util.concurrent.atomic.AtomicInteger();
		volatile @Nullable Throwable endedWith;
		volatile boolean ended;
		/** Under the host's lock: room granted and not yet filled. */
		long granted;
		Disposable upstream = () -> { };

		void grant(long n) {
			pendingGrant.addAndGet(n);
			drain();
		}

		void end(@Nullable Throwable error) {
			endedWith = error;
			ended = true;
			drain();
		}

		private void drain() {
			if (wip.getAndIncrement() != 0) {
				return;
			}
			int missed = 1;
			do {
				long n = pendingGrant.getAndSet(0);
				if (n > 0) {
					grants.tryEmitNext(n);
				}
				if (ended) {
					if (endedWith == null) {
						grants.tryEmitComplete();
					}
					else {
						grants.tryEmitError(endedWith);
					}
				}
				missed = wip.addAndGet(-missed);
			}
			while (missed != 0);
		}
	}

	/** Milliseconds on the clock of the scheduler that times {@link #STALL}, which tests can make virtual. */
	private static long now() {
		return Schedulers.parallel().now(TimeUnit.MILLISECONDS);
	}

	private static final class Consumer {
		final Sinks.Many<List<QueueItem>> batches = Sinks.many().unicast().onBackpressureBuffer();
		final ArrayDeque<QueueItem> handedOut = new ArrayDeque<>();
		long handedBytes;
		long heldBytes = PREFETCH_BYTES;
		long credit;
		/** Items handed to it, counted from the least served when it joined. */
		long served;
		/** When it last acknowledged an item, or began holding items, in {@link #now()}'s milliseconds. */
		long lastAck = now();
		Disposable upstream = () -> { };

		/** Whether it may be handed an item now: it has credit, and holds less than it said it would. */
		boolean canTake() {
			return credit > 0 && (handedOut.isEmpty() || handedBytes < heldBytes);
		}
	}
}
