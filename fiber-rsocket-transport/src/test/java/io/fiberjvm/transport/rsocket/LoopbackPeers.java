package io.fiberjvm.transport.rsocket;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;

/** Servers and clients over loopback with one set of settings, each client connected to a server of its own; closed together. */
final class LoopbackPeers implements AutoCloseable {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private final TransportSettings settings;
	private final List<Runnable> cleanup = new CopyOnWriteArrayList<>();

	LoopbackPeers(TransportSettings settings) {
		this.settings = settings;
	}

	/** A client connected to a new server that answers with {@code router}. */
	Connection connect(Router router) {
		RSocketTransport transport = new RSocketTransport(settings);
		TransportServer server = transport.bind(new Endpoint("127.0.0.1", 0), peer -> router).block(WAIT);
		cleanup.add(server::dispose);
		Connection connection = transport.connect(server.address(), "client", Router.none()).block(WAIT);
		cleanup.add(connection::dispose);
		return connection;
	}

	@Override
	public void close() {
		cleanup.forEach(Runnable::run);
	}
}
