package io.fiberjvm.transport.rsocket;

import java.time.Duration;

import javax.net.ssl.SSLException;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import io.fiberjvm.transport.RunTls;

/**
 * TLS 1.3 for a run's connections over the network: every server presents the run's certificate ({@link RunTls}),
 * and every client trusts that certificate alone.
 *
 * <p>A peer is known by the run's certificate, not by its address: pods come and go with new IPs, so the host name is
 * not checked. The run's secret, proved at setup, still decides who may talk.
 */
final class TlsContexts {

	private static final String[] PROTOCOLS = {"TLSv1.3"};

	private final SslContext server;
	private final SslContext client;
	private final Duration handshakeTimeout;

	private TlsContexts(SslContext server, SslContext client, Duration handshakeTimeout) {
		this.server = server;
		this.client = client;
		this.handshakeTimeout = handshakeTimeout;
	}

	/**
	 * The contexts of the run whose secret is {@code secret}; a handshake may take {@code handshakeTimeout} (a JVM
	 * starting on a throttled pod is slow to make its first).
	 */
	static TlsContexts forRun(String secret, Duration handshakeTimeout) {
		RunTls identity = RunTls.derive(secret);
		try {
			return new TlsContexts(
					SslContextBuilder.forServer(identity.privateKey(), identity.certificate()).sslProvider(SslProvider.JDK)
							.protocols(PROTOCOLS).build(),
					SslContextBuilder.forClient().trustManager(identity.certificate()).sslProvider(SslProvider.JDK)
							.protocols(PROTOCOLS).endpointIdentificationAlgorithm(null).build(),
					handshakeTimeout);
		}
		catch (SSLException e) {
			throw new IllegalStateException("the run's TLS contexts cannot be made: " + e.getMessage(), e);
		}
	}

	TcpServer secure(TcpServer tcp) {
		return tcp.secure(spec -> spec.sslContext(server).handshakeTimeout(handshakeTimeout));
	}

	TcpClient secure(TcpClient tcp) {
		return tcp.secure(spec -> spec.sslContext(client).handshakeTimeout(handshakeTimeout));
	}
}
