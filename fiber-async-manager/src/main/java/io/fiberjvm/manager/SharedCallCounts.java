package io.fiberjvm.manager;

import java.util.concurrent.atomic.AtomicLong;

import io.fiberjvm.internal.frames.SharedCallsFrame;

/**
 * The calls a manager process served on its shared objects, from any process of the run: how many,
 * how many failed, and their summed time from arrival to answer (a queue's take includes its wait for
 * an item). The manager sends them to its parent on its session when they change, at most once a
 * second, as a {@link SharedCallsFrame}.
 */
final class SharedCallCounts {

	private final AtomicLong calls = new AtomicLong();
	private final AtomicLong failed = new AtomicLong();
	private final AtomicLong nanos = new AtomicLong();

	/** A call that arrived at {@code startNanos} ended now. */
	void served(long startNanos, boolean failedCall) {
		nanos.addAndGet(System.nanoTime() - startNanos);
		if (failedCall) {
			failed.incrementAndGet();
		}
		calls.incrementAndGet();
	}

	long calls() {
		return calls.get();
	}

	/** The counts now, as a report. */
	SharedCallsFrame report() {
		return new SharedCallsFrame(calls.get(), failed.get(), nanos.get());
	}
}
