package io.fiberjvm.transport;

/**
 * A snapshot of a listening server's counters, for monitoring.
 *
 * @param connections authenticated connections open now
 * @param accepted connections accepted (authenticated) since the server started
 * @param rejected connections refused or closed for bad input (wrong secret, not frames, a frame over the limit)
 * @param bytesReceived bytes of frames read from peers
 * @param bytesSent bytes of frames written to peers
 */
public record TransportStats(int connections, long accepted, long rejected, long bytesReceived, long bytesSent) {

	/** What a server that counts nothing, or none at all, reports. */
	public static final TransportStats NONE = new TransportStats(0, 0, 0, 0, 0);
}
