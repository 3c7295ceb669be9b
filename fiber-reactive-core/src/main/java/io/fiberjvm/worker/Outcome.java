package io.fiberjvm.worker;

/**
 * How a target ended, as its child reports it before exiting.
 *
 * @param error the target's exception as {@link io.fiberjvm.RemoteException#encode} wrote it; null on success
 */
public record Outcome(String error) {
}
