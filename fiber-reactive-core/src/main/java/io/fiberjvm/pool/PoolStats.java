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
 * @param requeued tasks a lost worker held that went back to the queue without using an attempt: ones it had
 *     not started, and, when it died with several unanswered in the chunk it was running, each of those (which
 *     then run alone, so that only the one that kills its worker is charged)
 */
public record PoolStats(int workers, int target, long queued, long inFlight, long completed, long failed, long lost,
		long retried, long workersStarted, long workersLost, long submitted, long workersReplaced, long requeued) {
}
