package io.fiberjvm.manager;

import java.lang.ref.SoftReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import io.fiberjvm.internal.LatencyFeed;
import io.fiberjvm.internal.frames.SharedCallsFrame;

/** The calls a manager's session sent and has no answer to yet, with what it counts of all its calls. */
final class PendingCalls {

	/**
	 * A call sent and not answered: what it was, for errors, where its result goes, when it left, and the array of
	 * its sole argument, which goes back to the codec once the answer shows the manager read it. Held softly: a
	 * long call (or a sequence's, answered at its end) must not keep a large argument from the collector.
	 */
	record Call(String what, Sinks.One<Object> result, long sentAt, @Nullable SoftReference<byte[]> argument) {
	}

	private final Map<Long, Call> pending = new ConcurrentHashMap<>();
	/** Calls whose result is a sequence, until it ends: where their elements go. */
	private final Map<Long, StreamIn> streams = new ConcurrentHashMap<>();
	private final AtomicLong calls = new AtomicLong();
	private final AtomicLong failed = new AtomicLong();
	/** Each call's time from sending to its answer. */
	private final LatencyFeed latencies = new LatencyFeed();

	/** The next call's id. */
	long nextId() {
		return calls.incrementAndGet();
	}

	/** Call {@code id} was sent; {@code stream} takes its elements when its result is a sequence. */
	void sent(long id, Call call, @Nullable StreamIn stream) {
		pending.put(id, call);
		if (stream != null) {
			streams.put(id, stream);
		}
	}

	/** Call {@code id}, no longer pending; null when it is not. */
	@Nullable Call take(long id) {
		return pending.remove(id);
	}

	/** Every call pending, none pending any more. */
	List<Call> takeAll() {
		List<Call> all = new ArrayList<>();
		for (Long id : new ArrayList<>(pending.keySet())) {
			Call call = pending.remove(id);
			if (call != null) {
				all.add(call);
			}
		}
		return all;
	}

	/** Where the elements of call {@code id} go, or null when it has no sequence under way. */
	@Nullable StreamIn stream(long id) {
		return streams.get(id);
	}

	void streamEnded(long id) {
		streams.remove(id);
	}

	/** Counts an answered (or lost) call and reports its latency to whoever listens. */
	void answered(Call call, boolean failedCall) {
		if (failedCall) {
			failed.incrementAndGet();
		}
		latencies.record(System.nanoTime() - call.sentAt());
	}

	/** The counts, with the manager's own report of the calls it served on shared objects. */
	ManagerStats stats(SharedCallsFrame shared) {
		return new ManagerStats(calls.get(), failed.get(), pending.size(), shared.calls(), shared.failed(), Duration.ofNanos(shared.nanos()));
	}

	Flux<Duration> latencies() {
		return latencies.flux();
	}
}
