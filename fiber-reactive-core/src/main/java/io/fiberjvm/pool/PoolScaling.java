package io.fiberjvm.pool;

import java.time.Duration;
import java.util.Objects;

/**
 * How an autoscaling pool sizes itself: an immutable policy whose setters return a copy, given to
 * {@code fiber.pool(PoolScaling)} ({@code fiber.pool(min, max)} is {@code between(min, max)} with the defaults).
 *
 * <p>The pool starts with {@link #min()} workers. While a task has waited for a worker longer than
 * {@link #queueTime()} (measured: the time since the oldest waiting task was queued), it adds workers, at most as many
 * as it has again and no more than tasks wait, up to {@link #max()}; it adds none while workers it added are still
 * starting (on Kubernetes, a pod that stays {@code Pending} is still starting, and the pool works with the workers it
 * has meanwhile). A worker that has held no task for {@link #idleAfter()} while no task waits is retired, down to
 * {@code min}: only idle workers are retired, so scaling down never stops a task. No task is lost or run twice by
 * scaling either way.
 */
public final class PoolScaling {

	private final int min;
	private final int max;
	private final Duration queueTime;
	private final Duration idleAfter;

	private PoolScaling(int min, int max, Duration queueTime, Duration idleAfter) {
		this.min = min;
		this.max = max;
		this.queueTime = queueTime;
		this.idleAfter = idleAfter;
	}

	/**
	 * Between {@code min} and {@code max} workers, adding workers once a task has waited 500 ms, retiring a worker
	 * idle for 30 s.
	 *
	 * @throws IllegalArgumentException if {@code min} is negative, {@code max} is not positive, or {@code min > max}
	 */
	public static PoolScaling between(int min, int max) {
		if (min < 0 || max < 1 || min > max) {
			throw new IllegalArgumentException("an autoscaling pool has between min and max workers, with 0 <= min <= max and "
					+ "max >= 1; not min " + min + ", max " + max);
		}
		return new PoolScaling(min, max, Duration.ofMillis(500), Duration.ofSeconds(30));
	}

	/**
	 * This policy, adding workers once the oldest waiting task has waited longer than {@code queueTime}.
	 *
	 * @throws IllegalArgumentException if {@code queueTime} is not positive, or longer than a day
	 */
	public PoolScaling queueTime(Duration queueTime) {
		return new PoolScaling(min, max, checked(queueTime, "queueTime"), idleAfter);
	}

	/**
	 * This policy, retiring a worker that held no task for {@code idleAfter} while no task waited.
	 *
	 * @throws IllegalArgumentException if {@code idleAfter} is not positive, or longer than a day
	 */
	public PoolScaling idleAfter(Duration idleAfter) {
		return new PoolScaling(min, max, queueTime, checked(idleAfter, "idleAfter"));
	}

	private static Duration checked(Duration duration, String what) {
		Objects.requireNonNull(duration, what);
		if (duration.isNegative() || duration.isZero() || duration.compareTo(Duration.ofDays(1)) > 0) {
			throw new IllegalArgumentException("an autoscaling pool's " + what + " is longer than zero and at most a day, not "
					+ duration);
		}
		return duration;
	}

	/** The fewest workers the pool keeps, and starts with. */
	public int min() {
		return min;
	}

	/** The most workers the pool grows to. */
	public int max() {
		return max;
	}

	/** How long a task may wait for a worker before the pool adds workers. */
	public Duration queueTime() {
		return queueTime;
	}

	/** How long a worker holds no task, with none waiting, before the pool retires it. */
	public Duration idleAfter() {
		return idleAfter;
	}

	@Override
	public String toString() {
		return "PoolScaling.between(" + min + ", " + max + ").queueTime(" + queueTime + ").idleAfter(" + idleAfter + ")";
	}
}
