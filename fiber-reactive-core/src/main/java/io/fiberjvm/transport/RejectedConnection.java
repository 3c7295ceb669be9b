package io.fiberjvm.transport;

/**
 * A connection a server refused or closed for bad input, for logs and tests.
 *
 * @param remoteAddress where the connection came from
 * @param reason what was wrong: wrong secret, no secret, malformed frame, frame over the limit, ...
 */
public record RejectedConnection(String remoteAddress, String reason) {
}
