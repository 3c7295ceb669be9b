package io.fiberjvm.internal.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Schedulers;

/**
 * How a queue's host shares items among its consumers: evenly, not by speed. An item goes to the consumer with credit
 * that was handed the fewest, and to none that was handed {@link #LEAD} more than the least-served consumer still
 * taking items (one with credit, or holding items and having acknowledged one within {@link #STALL}). So a consumer
 * whose JVM is slowed for a moment is waited for, and one that stops taking items, or holds them longer than that, is
 * not. Guarded by the host's lock.
 */
final class FairShares {

	/** How many items more than the least-served consumer still taking items a consumer may have been handed. */
	static final int LEAD = 16;
	/** How long a consumer may hold items without acknowledging one and still hold the others back. */
	static final Duration STALL = Duration.ofMillis(200);

	/** When a dispatch is due because a consumer that holds the others back will count as stalled, in {@link #now()}'s milliseconds. */
	private long recheckAt = Long.MAX_VALUE;

	/** Milliseconds on the clock of the scheduler that times {@link #STALL}, which tests can make virtual. */
	static long now() {
		return Schedulers.parallel().now(TimeUnit.MILLISECONDS);
	}

	/** The least served of the consumers that may take an item now, looking from {@code from} round; null when none may. */
	static @Nullable QueueConsumer leastServedTaker(List<QueueConsumer> consumers, int from) {
		int n = consumers.size();
		QueueConsumer next = null;
		for (int i = 0; i < n; i++) {
			QueueConsumer consumer = consumers.get((from + i) % n);
			if (consumer.canTake() && (next == null || consumer.served < next.served)) {
				next = consumer;
			}
		}
		return next;
	}

	/** Whether {@code next} is {@link #LEAD} ahead of the least-served consumer still taking items. */
	static boolean ahead(QueueConsumer next, List<QueueConsumer> consumers, long now) {
		return next.served >= leastServed(consumers, now, next.served) + LEAD;
	}

	/**
	 * The fewest items handed to a consumer still taking items (one with credit, or holding items and having
	 * acknowledged one within {@link #STALL}), or {@code otherwise} when none is.
	 */
	static long leastServed(List<QueueConsumer> consumers, long now, long otherwise) {
		long least = otherwise;
		for (QueueConsumer consumer : consumers) {
			if (consumer.canTake() || !consumer.handedOut.isEmpty() && now - consumer.lastAck < STALL.toMillis()) {
				least = Math.min(least, consumer.served);
			}
		}
		return least;
	}

	/**
	 * A dispatch held back: when the first consumer now holding the others back (holding items, and not stalled yet)
	 * will count as stalled, if that is sooner than the dispatch already due; else {@link Long#MAX_VALUE}, nothing new
	 * to schedule.
	 */
	long recheckDue(List<QueueConsumer> consumers, long now) {
		long first = Long.MAX_VALUE;
		for (QueueConsumer consumer : consumers) {
			long stalls = consumer.lastAck + STALL.toMillis();
			if (!consumer.canTake() && !consumer.handedOut.isEmpty() && stalls > now) {
				first = Math.min(first, stalls);
			}
		}
		if (first == Long.MAX_VALUE || first >= recheckAt) {
			return Long.MAX_VALUE;
		}
		recheckAt = first;
		return first;
	}

	/** The dispatch due at {@code due} runs; whatever the clock says, a clock set back must not leave one pending that never comes. */
	void rechecked(long due) {
		if (recheckAt == due) {
			recheckAt = Long.MAX_VALUE;
		}
	}
}
