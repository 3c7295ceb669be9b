package io.fiberjvm.pool;

/**
 * A snapshot of a pool's counters, for monitoring and tests.
 *
 * @param workers workers running now (connected and taking tasks)
 * @param target the number of workers the pool keeps
 * @param queued tasks waiting for a worker
 * @param inFlight tasks handed to workers and not yet answered
 * @param completed tasks that returned a result
 * @param failed tasks whose function threw
 * @param lost task attempts lost with their worker: each the task its worker was running when it died, charged
 *     with an attempt
 * @param retried task attempts started again after a loss or failure
 * @param workersStarted workers started since the pool opened (with several workers per process, each counts)
 * @param workersLost workers that ended while the pool still wanted them (a lost process counts each of its workers)
 * @param submitted tasks submitted (each once, however many attempts it took)
 * @param workersReplaced workers started to replace lost ones
 * @param requeued tasks a lost worker held that went back to the queue without using an attempt: all it held
 *     when it held more than one unanswered task (or the workers of its process did together), since any of them
 *     may have been the one it was running; each then runs alone, so that only a task that kills its worker is
 *     charged
 * @param minWorkers the fewest workers the pool keeps: {@code target} for a pool of a fixed size
 * @param maxWorkers the most workers the pool grows to: {@code target} for a pool of a fixed size
 * @param queueWait how long the task that has waited longest for a worker has waited; zero when none waits
 */
public record PoolStats(int workers, int target, long queued, long inFlight, long completed, long failed, long lost,
		long retried, long workersStarted, long workersLost, long submitted, long workersReplaced, long requeued,
		int minWorkers, int maxWorkers, java.time.Duration queueWait) {
}
