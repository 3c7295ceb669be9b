package io.fiberjvm.transport;

import java.util.Objects;

/**
 * Where a transport server listens: a host and a port.
 *
 * @param host a name or address
 * @param port 0..65535; 0 asks the server to pick a free port
 */
public record Endpoint(String host, int port) {

	public Endpoint {
		Objects.requireNonNull(host, "host");
		if (port < 0 || port > 65535) {
			throw new IllegalArgumentException("port " + port + " is outside 0..65535");
		}
	}

	/** Parses {@code host:port}. */
	public static Endpoint parse(String text) {
		Objects.requireNonNull(text, "text");
		int colon = text.lastIndexOf(':');
		if (colon <= 0) {
			throw new IllegalArgumentException("'" + text + "' is not host:port");
		}
		try {
			return new Endpoint(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
		}
		catch (NumberFormatException e) {
			throw new IllegalArgumentException("'" + text + "' is not host:port");
		}
	}

	@Override
	public String toString() {
		return host + ":" + port;
	}
}
