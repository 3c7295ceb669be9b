package io.fiberjvm.transport.rsocket;

import java.net.InetSocketAddress;

import io.rsocket.Closeable;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;

/** A bound TCP server as RSocket closes it: its address, and closing the listening socket. */
final class ListeningChannel implements Closeable {

	private final DisposableServer server;

	ListeningChannel(DisposableServer server) {
		this.server = server;
	}

	InetSocketAddress address() {
		return (InetSocketAddress) server.address();
	}

	@Override
	public Mono<Void> onClose() {
		return server.onDispose();
	}

	@Override
	public void dispose() {
		server.dispose();
	}

	@Override
	public boolean isDisposed() {
		return server.isDisposed();
	}
}
