package io.fiberjvm.benchmarks;

/**
 * How two processes of one machine reach each other through Fiber's transport, for the benchmarks that compare them:
 * the local socket (an IP address of this machine), TCP (a host name, which has no local socket), or TCP with TLS.
 */
public enum FiberPath {
	LOCAL("127.0.0.1", false),
	TCP("localhost", false),
	TLS("localhost", true);

	private final String host;
	private final boolean tls;

	FiberPath(String host, boolean tls) {
		this.host = host;
		this.tls = tls;
	}

	/** The host a server binds to and a client connects to. */
	public String host() {
		return host;
	}

	public boolean tls() {
		return tls;
	}
}
