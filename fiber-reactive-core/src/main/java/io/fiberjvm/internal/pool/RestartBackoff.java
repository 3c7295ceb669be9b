package io.fiberjvm.internal.pool;

import java.time.Duration;

/**
 * The delay before starting a replacement worker: none after a worker that had worked, and doubling
 * from {@code min} to {@code max} over consecutive workers that ended before they took any task (a
 * crashing initializer, a start that fails), so a broken worker does not spin.
 */
record RestartBackoff(Duration min, Duration max) {

	static final RestartBackoff DEFAULT = new RestartBackoff(Duration.ofMillis(200), Duration.ofSeconds(10));

	RestartBackoff {
		if (min.isNegative() || max.compareTo(min) < 0) {
			throw new IllegalArgumentException("restart backoff must have 0 <= min <= max, not " + min + " and " + max);
		}
	}

	/** The delay after {@code failures} consecutive workers failed to get going. */
	Duration delay(int failures) {
		if (failures <= 0) {
			return Duration.ZERO;
		}
		Duration delay = min;
		for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
			delay = delay.multipliedBy(2);
		}
		return delay.compareTo(max) > 0 ? max : delay;
	}
}
