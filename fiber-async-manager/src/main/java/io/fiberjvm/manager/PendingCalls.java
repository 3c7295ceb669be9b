package io.fiberjvm.manager;

import java.lang.ref.SoftReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.LargeDecoding;
import io.fiberjvm.internal.LatencyFeed;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ElementsFrame;
import io.fiberjvm.internal.frames.SharedCallsFrame;

/** The calls a manager's session sent and has no answer to yet, with what it counts of all its calls. */
final class PendingCalls {

	/**
	 * A call sent and not answered: what it was, for errors, where its result goes, when it left, its deadline in
	 * nanoseconds (0: none), and the array of
	 * its sole argument, which goes back to the codec once the answer shows the manager read it. Held softly: a
	 * long call (or a sequence's, answered at its end) must not keep a large argument from the collector.
	 */
	record Call(String what, Sinks.One<Object> result, long sentAt, long timeoutNanos, @Nullable SoftReference<byte[]> argument) {
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

	/** Delivers the elements a frame carries to their call's sequence, if it is still under way. */
	void elements(ElementsFrame elements) {
		StreamIn in = streams.get(elements.call());
		if (in != null) {
			in.elements(elements.elements());
		}
	}

	/** Delivers an answer to its call, if it is still pending: its value, read with {@code values}, or its error. */
	void answer(Answer answer, ShippedValues values) {
		Call call = take(answer.id());
		if (call == null) {
			return;
		}
		// Answered: the call's frame was written whole, and its array may hold the next argument of its size.
		Arguments.giveBack(values, call.argument());
		answered(call, answer.failed());
		if (answer.failed()) {
			call.result().tryEmitError(CallErrors.of(RemoteException.decode(answer.error()), call));
			return;
		}
		// A result that cannot be read, or whose class cannot initialize here, fails its own call only.
		LargeDecoding.run(answer.value(), () -> {
			Object value = answer.result(values, "the result of " + call.what());
			if (value == null) {
				call.result().tryEmitEmpty();
			}
			else {
				call.result().tryEmitValue(value);
			}
		}, error -> call.result().tryEmitError(error));
	}

	/** Fails {@code calls}, taken from the pending ones, each with the error {@code why} gives it. */
	void failAll(List<Call> calls, Function<Call, Throwable> why) {
		for (Call call : calls) {
			answered(call, true);
			call.result().tryEmitError(why.apply(call));
		}
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
	ManagerStats stats(SharedCallsFrame shared, long restarts) {
		return new ManagerStats(calls.get(), failed.get(), pending.size(), shared.calls(), shared.failed(), Duration.ofNanos(shared.nanos()),
				restarts);
	}

	Flux<Duration> latencies() {
		return latencies.flux();
	}
}
