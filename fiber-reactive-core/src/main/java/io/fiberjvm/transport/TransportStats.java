package io.fiberjvm.transport;

/**
 * A snapshot of a listening server's counters, for monitoring.
 *
 * @param connections authenticated connections open now
 * @param accepted connections accepted (authenticated) since the server started
 * @param rejected connections refused or cut off for what their peer sent: a setup refused (no secret or a wrong
 *     one, stale or replayed, or the acceptor's refusal), bytes that are not RSocket frames (a first frame that is
 *     not a setup frame, a frame cut short by the close, bytes the frame decoder refuses), a frame over the limit,
 *     or nothing sent within the first-frame timeout; not a connection that closes having sent nothing sooner, nor
 *     one whose first frame was a setup frame and that closes as it will (one RSocket cannot read included)
 * @param bytesReceived bytes of frames read from peers
 * @param bytesSent bytes of frames written to peers
 */
public record TransportStats(int connections, long accepted, long rejected, long bytesReceived, long bytesSent) {

	/** What a server that counts nothing, or none at all, reports. */
	public static final TransportStats NONE = new TransportStats(0, 0, 0, 0, 0);
}
