package io.fiberjvm.transport;

/**
 * Decides what a server does with a peer that presented the right secret.
 *
 * <p>It returns the {@link Router} that answers the peer's requests, and may keep {@code peer} to
 * send requests back. Throwing refuses the peer: the message reaches it as a
 * {@link ConnectionRejectedException}.
 */
@FunctionalInterface
public interface Acceptor {

	Router accept(Connection peer);
}
