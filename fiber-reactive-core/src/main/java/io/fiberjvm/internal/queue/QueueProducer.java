package io.fiberjvm.internal.queue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Sinks;

/**
 * One producer session of a queue's host. Grants and the end are signalled outside the host's lock, possibly from two
 * threads at once; a drain loop hands them to the sink one at a time, grants first, without waiting.
 */
final class QueueProducer {
	final Sinks.Many<Long> grants = Sinks.many().unicast().onBackpressureBuffer();
	final AtomicLong pendingGrant = new AtomicLong();
	final AtomicInteger wip = new AtomicInteger();
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
