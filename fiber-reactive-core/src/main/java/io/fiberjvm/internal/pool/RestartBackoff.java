package io.fiberjvm.internal.pool;

import java.time.Duration;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;
import reactor.util.retry.RetryBackoffSpec;

/**
 * The delay before starting a worker after consecutive failed starts: Reactor's exponential backoff from
 * {@code min}, doubling up to {@code max}, with half of each delay as jitter, so that pools, or replacement pods,
 * failing together do not restart in lockstep.
 */
final class RestartBackoff {

	static final RestartBackoff DEFAULT = new RestartBackoff(Duration.ofMillis(200), Duration.ofSeconds(10));

	private final Duration min;
	private final Duration max;
	private final RetryBackoffSpec spec;

	RestartBackoff(Duration min, Duration max) {
		if (min.isNegative() || max.compareTo(min) < 0) {
			throw new IllegalArgumentException("restart backoff must have 0 <= min <= max, not " + min + " and " + max);
		}
		this.min = min;
		this.max = max;
		this.spec = Retry.backoff(Long.MAX_VALUE, min).maxBackoff(max).jitter(0.5);
	}

	/** Emits once the delay after {@code failures} (at least 1) consecutive failed starts, the last with {@code last}, has passed. */
	Mono<Long> after(int failures, Throwable last) {
		return Flux.from(spec.generateCompanion(Flux.just(new FailedStarts(failures, last)))).next();
	}

	/** The longest delay after {@code failures} consecutive failed starts, jitter included, as logs state it. */
	Duration atMost(int failures) {
		Duration delay = min;
		for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
			delay = delay.multipliedBy(2);
		}
		delay = delay.plus(delay.dividedBy(2));
		return delay.compareTo(max) > 0 ? max : delay;
	}

	/** Consecutive failed starts, as the backoff reads a retry: the first is its iteration 0. */
	private record FailedStarts(long failures, Throwable failure) implements Retry.RetrySignal {

		@Override
		public long totalRetries() {
			return failures - 1;
		}

		@Override
		public long totalRetriesInARow() {
			return failures - 1;
		}
	}
}
