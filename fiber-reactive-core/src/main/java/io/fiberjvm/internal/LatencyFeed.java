package io.fiberjvm.internal;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;

/**
 * Durations of operations as they end (a pool's tasks, a manager's calls), for metrics: a hot
 * {@code Flux} that emits only while someone listens, so an unobserved operation costs one check.
 *
 * <p>Operations end on many threads at once; emissions are serialized here, so none is dropped for
 * racing another. Listeners run on the ending thread and must be quick.
 */
public final class LatencyFeed {

	private final Sinks.Many<Duration> sink = Sinks.many().multicast().directBestEffort();

	/** An operation ended {@code nanos} after it started. */
	public void record(long nanos) {
		if (sink.currentSubscriberCount() > 0) {
			synchronized (sink) {
				sink.tryEmitNext(Duration.ofNanos(nanos));
			}
		}
	}

	/** The durations of operations ending from now on. */
	public Flux<Duration> flux() {
		return sink.asFlux();
	}
}
