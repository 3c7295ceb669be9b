package io.fiberjvm.queue;

/**
 * A snapshot of a queue's counters, kept by the process hosting it.
 *
 * @param depth items waiting for a consumer
 * @param unacknowledged items handed to consumers and not yet acknowledged
 * @param blockedPuts puts waiting for room (the queue is full)
 * @param puts items the queue accepted since it was made
 * @param takes items consumers took and acknowledged since it was made
 */
public record QueueStats(int depth, int unacknowledged, int blockedPuts, long puts, long takes) {
}
