package io.fiberjvm.transport.rsocket;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.Codec;
import io.fiberjvm.transport.Messenger;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.Transport;
import io.fiberjvm.testkit.TransportContract;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transport contract over TLS: servers bound to a host name, which has no local socket, so every connection is
 * TCP with the run's certificate.
 */
class RSocketTlsTransportTest implements TransportContract {

	@Override
	public Transport transport(TransportSettings settings) {
		return new RSocketTransport(settings);
	}

	@Override
	public TransportSettings settings() {
		return TransportContract.super.settings().withTls(true);
	}

	@Override
	public String host() {
		return "localhost";
	}

	/** Another run's secret makes another certificate: the client does not trust the server, and says so. */
	@Test
	@Override
	public void wrongSecretIsRefusedAndTheServerGoesOnServing() {
		TransportServer server = serve(echoRoutes());
		StepVerifier.create(transport(settings().withSecret("not-the-secret")).connect(server.address(), "intruder", Router.none()))
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("cannot connect to").hasStackTraceContaining("SSL"))
				.verify(Duration.ofSeconds(10));
		Messenger m = Messenger.over(connect(server, "client"), Codec.standard());
		StepVerifier.create(m.request("echo", new Point(7, 8), Point.class)).expectNext(new Point(8, 7)).verifyComplete();
	}

	@Test
	void aPeerWithoutTlsIsCutOffAndTheServerGoesOnServing() throws Exception {
		TransportServer server = serve(echoRoutes());
		StepVerifier.create(transport(settings().withTls(false)).connect(server.address(), "plain", Router.none()))
				.expectError()
				.verify(Duration.ofSeconds(20));
		// Plain bytes where a TLS handshake belongs: the server closes the connection.
		try (Socket raw = new Socket("localhost", server.address().port())) {
			raw.setSoTimeout(15_000);
			OutputStream out = raw.getOutputStream();
			out.write(new byte[] {0, 0, 10, 0, 0, 0, 0, 4, 0, 0, 1, 0, 0});
			out.flush();
			InputStream in = raw.getInputStream();
			int read;
			do {
				read = in.read();
			}
			while (read >= 0);
		}
		Messenger m = Messenger.over(connect(server, "client"), Codec.standard());
		StepVerifier.create(m.request("echo", new Point(1, 2), Point.class)).expectNext(new Point(2, 1)).verifyComplete();
	}
}
