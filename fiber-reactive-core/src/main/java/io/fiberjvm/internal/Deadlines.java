package io.fiberjvm.internal;

import java.time.Duration;
import java.util.Objects;

/** How a deadline the user gives (a pool task's, a manager call's) becomes the nanoseconds a frame carries. */
public final class Deadlines {

	private Deadlines() {
	}

	/**
	 * {@code timeout} in nanoseconds, 0 for none; refused, naming {@code what} it is ("a task timeout"), when negative
	 * or beyond what a JVM can time.
	 */
	public static long nanos(Duration timeout, String what) {
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException(what + " of " + timeout + " is negative; give a positive one, or Duration.ZERO for none");
		}
		try {
			return timeout.toNanos();
		}
		catch (ArithmeticException tooLong) {
			throw new IllegalArgumentException(what + " of " + timeout + " is longer than a JVM can time; give Duration.ZERO for none");
		}
	}
}
