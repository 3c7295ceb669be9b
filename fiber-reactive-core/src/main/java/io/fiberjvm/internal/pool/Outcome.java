package io.fiberjvm.internal.pool;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.pool.TaskTimeoutException;

/**
 * How an attempt ended: its worker's answer, or the error that ended it without one.
 *
 * @param worker the worker it ran on
 * @param answer the worker's answer, or null
 * @param error why there is no answer (the worker was lost), or null
 */
record Outcome(String worker, @Nullable Answer answer, @Nullable Throwable error) {

	/** The outcome of {@code task}, which ran past its deadline on {@code worker} and did not stop when interrupted. */
	static Outcome stuck(Task task, String worker) {
		return new Outcome(worker, null, new TaskTimeoutException(task.toString(), worker, Duration.ofNanos(task.timeoutNanos),
				"it did not stop within task-timeout-grace of being interrupted, so its worker's JVM is replaced", null));
	}
}
