package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * What a pool's autoscaler decides from, as the dispatcher saw it at one moment.
 *
 * @param queued tasks waiting for a worker
 * @param waitNanos how long the task that has waited longest has waited
 * @param idle the workers taking tasks that hold none, the longest idle first
 * @param taking the workers taking tasks, idle or not
 */
record PoolLoad(long queued, long waitNanos, List<Idle> idle, int taking) {

	/**
	 * A worker that holds no task.
	 *
	 * @param worker its name
	 * @param nanos how long it has held none
	 */
	record Idle(String worker, long nanos) {
	}

	/** The load of {@code queue} and {@code sessions} at {@code now}; under the dispatcher's lock. */
	static PoolLoad of(TaskQueue queue, Collection<WorkerSession> sessions, long now) {
		List<Idle> idle = new ArrayList<>();
		int taking = 0;
		for (WorkerSession session : sessions) {
			if (session.taking()) {
				taking++;
			}
			long nanos = session.idleNanos(now);
			if (nanos > 0) {
				idle.add(new Idle(session.worker, nanos));
			}
		}
		idle.sort(Comparator.comparingLong(Idle::nanos).reversed());
		return new PoolLoad(queue.size(), queue.longestWait(now), idle, taking);
	}
}
