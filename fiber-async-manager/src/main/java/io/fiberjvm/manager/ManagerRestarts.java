package io.fiberjvm.manager;

import java.time.Duration;
import java.util.Objects;

/**
 * How a manager comes back when its process is lost: an immutable policy whose setters return a copy, given to
 * {@link ManagerCall#restarts}.
 *
 * <p>A manager whose process ends, or whose connection is lost, without being closed is started again in a fresh
 * process, as {@link AsyncManager#restart()} does: every object whose proxy is reachable is made again from its
 * registration and constructor arguments, calls pending when the process was lost fail with
 * {@link ManagerRestartedException} (their objects' state was reset), calls made while the new process starts wait
 * for it, and later calls work. Shared objects ({@link Manager#map} and the like) start empty in the new process, and
 * handles to them must be taken again. A process that cannot start counts as another loss.
 *
 * <p>At most {@link #maxRestarts()} restarts happen within any {@link #window()}; the next loss within it loses the
 * manager for good ({@link ManagerLostException}). The {@code n}th restart within the window (counting from 0) waits
 * {@code min(backoff × 2^n, maxBackoff)}, moved at random by up to {@code jitter} of itself either way so that many
 * managers lost together do not all start again at once, and never past {@code maxBackoff}.
 */
public final class ManagerRestarts {

	private static final ManagerRestarts NONE = new ManagerRestarts(0, Duration.ofMinutes(1), Duration.ofMillis(200),
			Duration.ofSeconds(10), 0.5);

	private final int maxRestarts;
	private final Duration window;
	private final Duration backoff;
	private final Duration maxBackoff;
	private final double jitter;

	private ManagerRestarts(int maxRestarts, Duration window, Duration backoff, Duration maxBackoff, double jitter) {
		this.maxRestarts = maxRestarts;
		this.window = window;
		this.backoff = backoff;
		this.maxBackoff = maxBackoff;
		this.jitter = jitter;
	}

	/** No restarts: a lost manager stays lost. The default. */
	public static ManagerRestarts none() {
		return NONE;
	}

	/**
	 * Up to {@code maxRestarts} restarts within a minute (see {@link #within}), the first after 200 ms, doubling up to
	 * 10 s, with a jitter of 0.5.
	 *
	 * @throws IllegalArgumentException if {@code maxRestarts} is negative
	 */
	public static ManagerRestarts max(int maxRestarts) {
		if (maxRestarts < 0) {
			throw new IllegalArgumentException("a manager's restarts are 0 or more, not " + maxRestarts);
		}
		return new ManagerRestarts(maxRestarts, NONE.window, NONE.backoff, NONE.maxBackoff, NONE.jitter);
	}

	/**
	 * This policy, counting restarts within {@code window}: a manager lost more often than that is lost for good.
	 *
	 * @throws IllegalArgumentException if {@code window} is not positive or longer than a JVM can time
	 */
	public ManagerRestarts within(Duration window) {
		checked(window, "window", false);
		return new ManagerRestarts(maxRestarts, window, backoff, maxBackoff, jitter);
	}

	/**
	 * This policy, waiting {@code backoff} before the first restart within the window, twice as long before each
	 * next one; {@code Duration.ZERO} restarts at once every time.
	 *
	 * @throws IllegalArgumentException if {@code backoff} is negative or longer than a JVM can time
	 */
	public ManagerRestarts backoff(Duration backoff) {
		checked(backoff, "backoff", true);
		return new ManagerRestarts(maxRestarts, window, backoff, maxBackoff.compareTo(backoff) < 0 ? backoff : maxBackoff, jitter);
	}

	/**
	 * This policy, never waiting longer than {@code maxBackoff} before a restart.
	 *
	 * @throws IllegalArgumentException if {@code maxBackoff} is negative, shorter than the backoff or longer than a
	 *         JVM can time
	 */
	public ManagerRestarts maxBackoff(Duration maxBackoff) {
		checked(maxBackoff, "maxBackoff", true);
		if (maxBackoff.compareTo(backoff) < 0) {
			throw new IllegalArgumentException("the longest backoff (" + maxBackoff + ") is shorter than the first ("
					+ backoff + "); set backoff(...) first, or a longer maxBackoff");
		}
		return new ManagerRestarts(maxRestarts, window, backoff, maxBackoff, jitter);
	}

	/**
	 * This policy, moving each wait at random by up to {@code jitter} of itself either way (0 for none, 1 for as much
	 * as the wait itself).
	 *
	 * @throws IllegalArgumentException if {@code jitter} is not between 0 and 1
	 */
	public ManagerRestarts jitter(double jitter) {
		if (!(jitter >= 0 && jitter <= 1)) {
			throw new IllegalArgumentException("a restart jitter is between 0 and 1, not " + jitter);
		}
		return new ManagerRestarts(maxRestarts, window, backoff, maxBackoff, jitter);
	}

	private static void checked(Duration duration, String what, boolean zeroAllowed) {
		Objects.requireNonNull(duration, what);
		if (duration.isNegative() || !zeroAllowed && duration.isZero()) {
			throw new IllegalArgumentException("a manager restart's " + what + " of " + duration + " is not allowed; give one "
					+ (zeroAllowed ? "of zero or more" : "longer than zero"));
		}
		try {
			duration.toNanos();
		}
		catch (ArithmeticException tooLong) {
			throw new IllegalArgumentException("a manager restart's " + what + " of " + duration + " is longer than a JVM can time");
		}
	}

	/** How many restarts may happen within one window. */
	public int maxRestarts() {
		return maxRestarts;
	}

	/** The span restarts are counted over. */
	public Duration window() {
		return window;
	}

	/** The wait before the first restart within a window. */
	public Duration backoff() {
		return backoff;
	}

	/** The longest wait before a restart. */
	public Duration maxBackoff() {
		return maxBackoff;
	}

	/** How far, as a fraction of itself, a wait is moved at random. */
	public double jitter() {
		return jitter;
	}

	@Override
	public String toString() {
		return maxRestarts == 0 ? "ManagerRestarts.none()"
				: "ManagerRestarts.max(" + maxRestarts + ").within(" + window + ").backoff(" + backoff + ").maxBackoff("
						+ maxBackoff + ").jitter(" + jitter + ")";
	}
}
