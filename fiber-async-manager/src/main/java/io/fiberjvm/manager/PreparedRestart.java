package io.fiberjvm.manager;

import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;

/**
 * A manager's restart as its session prepared it under its lock (calls go to the next process from then on), to be
 * begun outside it: the link it replaces, the calls it cut off, and its run.
 */
final class PreparedRestart {

	private final @Nullable ManagerLink old;
	private final @Nullable FluxSink<byte[]> sink;
	private final List<PendingCalls.Call> cut;
	private final Mono<Void> run;
	private final long number;
	private final PendingCalls pending;

	/** Read under the session's lock: {@code old}'s session is taken as it is then. */
	PreparedRestart(@Nullable ManagerLink old, List<PendingCalls.Call> cut, Mono<Void> run, long number, PendingCalls pending) {
		this.old = old;
		this.sink = old == null ? null : old.out;
		this.cut = cut;
		this.run = run;
		this.number = number;
		this.pending = pending;
	}

	/** Which restart of the manager this is, from 1. */
	long number() {
		return number;
	}

	/** Stops the old process, fails the calls cut off with {@code failure}, and returns the run. */
	Mono<Void> begin(Function<PendingCalls.Call, Throwable> failure) {
		if (old != null) {
			old.close(sink);
		}
		pending.failAll(cut, failure);
		return run;
	}
}
