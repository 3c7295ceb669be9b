package io.fiberjvm.manager;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;

import io.fiberjvm.codec.CodecException;

/**
 * The calls a manager process served on its shared objects, from any process of the run: how many,
 * how many failed, and their summed time from arrival to answer (a queue's take includes its wait for
 * an item). The manager sends them to its parent on its session when they change, at most once a
 * second, as an answer with id {@value #REPORT_ID}.
 */
final class SharedCallCounts {

	/** The answer id of a report: calls count up from 1, the address is sent as 0. */
	static final long REPORT_ID = -1;

	private static final int SIZE = 3 * Long.BYTES;

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

	/** The counts now, as a report's bytes. */
	byte[] encode() {
		return ByteBuffer.allocate(SIZE).putLong(calls.get()).putLong(failed.get()).putLong(nanos.get()).array();
	}

	/** A report's counts: calls, failed, nanoseconds. */
	static long[] decode(byte[] report) {
		if (report == null || report.length != SIZE) {
			throw new CodecException("a shared-call report is " + SIZE + " bytes, not " + (report == null ? 0 : report.length));
		}
		ByteBuffer buffer = ByteBuffer.wrap(report);
		return new long[] {buffer.getLong(), buffer.getLong(), buffer.getLong()};
	}
}
