package io.fiberjvm.manager;

import java.time.Duration;

/**
 * A snapshot of the calls made to one manager: through its async proxies (creations included), counted
 * here as they are sent and answered; and on its shared objects from any process of the run, as the
 * manager process last reported them (it reports when they change, at most once a second).
 *
 * @param calls calls sent through async proxies since the manager started
 * @param failed those answered with an error, or lost with the manager
 * @param pending those sent and not answered yet
 * @param sharedCalls calls the manager served on its shared objects ({@code SharedMap} and the others)
 * @param sharedFailed those that failed
 * @param sharedCallTime their summed time from arrival to answer in the manager (a shared queue's take
 *        includes its wait for an item)
 * @param restarts the restarts begun since the manager started, asked for ({@link AsyncManager#restart()}) or made
 *        by its {@link ManagerRestarts} policy after a loss
 */
public record ManagerStats(long calls, long failed, int pending, long sharedCalls, long sharedFailed, Duration sharedCallTime,
		long restarts) {
}
