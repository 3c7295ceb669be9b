package io.fiberjvm.transport.rsocket;

import io.fiberjvm.transport.Transport;
import io.fiberjvm.transport.TransportProvider;
import io.fiberjvm.transport.TransportSettings;

/** Provides {@link RSocketTransport}: RSocket over TCP, the production transport. */
public final class RSocketTransportProvider implements TransportProvider {

	@Override
	public String name() {
		return "rsocket";
	}

	@Override
	public int priority() {
		return 100;
	}

	@Override
	public Transport create(TransportSettings settings) {
		return new RSocketTransport(settings);
	}
}
