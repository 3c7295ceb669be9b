package io.fiberjvm.backend;

import java.time.Duration;
import java.util.Objects;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * A job's status as it changes, for {@link Job} implementations: every subscriber sees the latest
 * status first, a status equal to the current one is not repeated, and a terminal status is final
 * (the feed completes after it).
 */
public final class JobStatusFeed {

	private final Sinks.Many<JobStatus> sink = Sinks.many().replay().latest();
	private volatile JobStatus current;

	public JobStatusFeed(JobStatus initial) {
		this.current = Objects.requireNonNull(initial, "initial");
		sink.tryEmitNext(initial);
		if (initial.isTerminal()) {
			sink.tryEmitComplete();
		}
	}

	/** The latest status. */
	public JobStatus current() {
		return current;
	}

	/** The statuses from the latest on, completing after the terminal one. */
	public Flux<JobStatus> flux() {
		return sink.asFlux();
	}

	/** Moves to {@code next}, unless the job has ended or is there already; returns whether it moved. */
	public synchronized boolean advance(JobStatus next) {
		Objects.requireNonNull(next, "next");
		if (current.isTerminal() || next.equals(current)) {
			return false;
		}
		current = next;
		sink.emitNext(next, Sinks.EmitFailureHandler.busyLooping(Duration.ofSeconds(1)));
		if (next.isTerminal()) {
			sink.emitComplete(Sinks.EmitFailureHandler.busyLooping(Duration.ofSeconds(1)));
		}
		return true;
	}
}
