package io.fiberjvm.transport.rsocket;

import io.fiberjvm.transport.Transport;
import io.fiberjvm.testkit.TransportContract;
import io.fiberjvm.transport.TransportSettings;

/** The transport contract over real RSocket TCP connections on loopback. */
class RSocketTransportTest implements TransportContract {

	@Override
	public Transport transport(TransportSettings settings) {
		return new RSocketTransport(settings);
	}
}
