package io.fiberjvm.internal.pool;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.fiberjvm.codec.ShippedValues;

/**
 * A function on its way to workers: serialized once, with an id that workers cache it under, and the
 * running mean of its tasks' durations that chunk sizes follow.
 */
final class ShippedFunction {

	private static final AtomicLong IDS = new AtomicLong();

	final long id = IDS.incrementAndGet();
	final byte[] bytes;
	/** The allow-list pattern for the package of the user's function. */
	final String allow;
	final String name;
	/** Whether its tasks stream their results back, one {@code flatMap} task per worker at a time. */
	final boolean streams;
	/** Mean nanoseconds per task, or a negative number until a chunk has reported; under the dispatcher's lock. */
	double meanNanos = -1;

	/**
	 * @param function what travels (the user's function, or a wrapper around it)
	 * @param userClass the class of the user's function, whose package workers may read
	 */
	ShippedFunction(Serializable function, Class<?> userClass, ShippedValues values) {
		String type = userClass.getName();
		int lambda = type.indexOf("$$Lambda");
		this.name = lambda > 0 ? type.substring(0, lambda) + "::lambda" : type;
		this.streams = function instanceof StreamingFunction;
		this.bytes = values.writeFunction(function, "the function " + name);
		this.allow = ShippedValues.packagePattern(userClass);
		// Read it back here, so a capture a worker would refuse fails the call now, not on every task.
		values.readFunction(bytes, List.of(allow), java.util.function.Function.class, "the function " + name);
	}

	/** Folds one chunk's timing into the mean: recent chunks weigh more, so a change of pace shows quickly. */
	void record(long elapsedNanos, int tasks) {
		double perTask = (double) elapsedNanos / Math.max(1, tasks);
		meanNanos = meanNanos < 0 ? perTask : 0.7 * meanNanos + 0.3 * perTask;
	}

	@Override
	public String toString() {
		return name;
	}
}
