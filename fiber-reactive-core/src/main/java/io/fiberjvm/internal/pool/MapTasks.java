package io.fiberjvm.internal.pool;

import java.util.List;

/**
 * What the attempts at each element of one mapping call are made of.
 *
 * @param core the pool
 * @param function the shipped function
 * @param what the call, as errors name it ({@code map})
 * @param chunkSize the caller's chunk size, or 0 to adapt
 * @param idempotent whether the function may run again for an element
 * @param timeoutNanos how long a task may run before its worker interrupts it, or 0 for no limit
 * @param laterAttempts the attempts after a first that failed
 */
record MapTasks(PoolCore core, ShippedFunction function, String what, int chunkSize, boolean idempotent,
		long timeoutNanos, FluxPoolMap.LaterAttempts laterAttempts) {

	/** The element of {@code call} with index {@code index}. */
	<R> MapElement<R> element(MapCall<R> call, long index) {
		return new MapElement<>(call, new TaskName(what, index, function), this);
	}

	/** Submits first attempts of the call's elements, in order, at once. */
	void submit(List<Task> firstAttempts) {
		core.submitted.addAndGet(firstAttempts.size());
		core.dispatcher.submitAll(firstAttempts);
	}
}
