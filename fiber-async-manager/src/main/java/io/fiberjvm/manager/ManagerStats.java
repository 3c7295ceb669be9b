package io.fiberjvm.manager;

/**
 * A snapshot of the calls made to one manager through its async proxies (creations included).
 *
 * @param calls calls sent since the manager started
 * @param failed calls answered with an error, or lost with the manager
 * @param pending calls sent and not answered yet
 */
public record ManagerStats(long calls, long failed, int pending) {
}
