package io.fiberjvm.transport.rsocket;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Set;

import io.rsocket.RSocket;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.RejectedConnection;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportStats;

/** A bound RSocket TCP server, with the Unix domain socket beside it where it has one ({@link LocalSockets}). */
final class RSocketServerHandle implements TransportServer {

	private final ListeningChannel channel;
	/** The Unix domain socket beside the TCP port, for peers on this machine; null when it has none. */
	private final @Nullable ListeningChannel local;
	private final RejectionFeed rejections;
	private final Set<RSocket> peers;
	private final ServerCounters counters;

	RSocketServerHandle(ListeningChannel channel, @Nullable ListeningChannel local, RejectionFeed rejections,
			Set<RSocket> peers, ServerCounters counters) {
		this.channel = channel;
		this.local = local;
		this.rejections = rejections;
		this.peers = peers;
		this.counters = counters;
	}

	@Override
	public TransportStats stats() {
		return new TransportStats(peers.size(), counters.accepted.sum(), counters.rejected.sum(), counters.bytesReceived.sum(),
				counters.bytesSent.sum());
	}

	@Override
	public Endpoint address() {
		InetSocketAddress address = channel.address();
		return new Endpoint(address.getHostString(), address.getPort());
	}

	@Override
	public Flux<RejectedConnection> rejections() {
		return rejections.asFlux();
	}

	@Override
	public Mono<Void> onClose() {
		return local == null ? channel.onClose() : Mono.when(channel.onClose(), local.onClose());
	}

	@Override
	public void dispose() {
		channel.dispose();
		if (local != null) {
			local.dispose();
		}
		// Closing the listening socket leaves accepted connections open; close them too.
		new ArrayList<>(peers).forEach(RSocket::dispose);
		rejections.complete();
	}

	@Override
	public boolean isDisposed() {
		return channel.isDisposed() && (local == null || local.isDisposed());
	}

	/** Whether peers on this machine reach the server through a Unix domain socket. */
	boolean hasLocalSocket() {
		return local != null;
	}

	/** How many connections came through that socket. */
	long localConnections() {
		return counters.local.sum();
	}

	@Override
	public String toString() {
		return "RSocketServer[" + address() + "]";
	}
}
