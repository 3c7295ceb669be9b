package io.fiberjvm.benchmarks;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.util.DefaultPayload;
import reactor.core.publisher.Flux;
import io.rsocket.core.RSocketServer;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import reactor.core.publisher.Mono;

import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Routes;
import io.fiberjvm.transport.TransportServer;
import io.fiberjvm.transport.TransportSettings;
import io.fiberjvm.transport.rsocket.RSocketTransport;

/**
 * The other JVM of the round-trip benchmark. It serves the same echo three ways, so one run measures
 * them side by side: Fiber's Transport SPI (route {@code echo}), plain RSocket request-response, and a
 * blocking loopback socket that echoes fixed-size messages. Prints {@code PORTS fiber=.. rsocket=.. raw=..}.
 */
public final class EchoServerMain {

	/** The size of every message in the raw ping-pong. */
	public static final int MESSAGE = 64;

	private EchoServerMain() {
	}

	public static void main(String[] args) throws IOException {
		FiberPath path = FiberPath.valueOf(System.getenv().getOrDefault("BENCH_PATH", "local").toUpperCase(java.util.Locale.ROOT));
		TransportSettings settings = TransportSettings.from(FiberConfig.defaults(), System.getenv("BENCH_SECRET"), path.tls());
		TransportServer fiber = new RSocketTransport(settings)
				.bind(new Endpoint(path.host(), 0), peer -> Routes.empty().withResponse("echo", Mono::just))
				.block(Duration.ofSeconds(30));
		CloseableChannel rsocket = RSocketServer.create(SocketAcceptor.with(new PlainResponder()))
				.bind(TcpServerTransport.create("127.0.0.1", 0))
				.block(Duration.ofSeconds(30));
		ServerSocket raw = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
		Thread acceptor = new Thread(() -> serveRaw(raw), "raw-echo");
		acceptor.setDaemon(true);
		acceptor.start();
		System.out.println("PORTS fiber=" + fiber.address().port() + " rsocket=" + rsocket.address().getPort()
				+ " raw=" + raw.getLocalPort());
		System.out.flush();
		// Ends when the benchmark closes our standard input (or dies).
		while (System.in.read() >= 0) {
			// keep serving
		}
		System.exit(0);
	}

	/** Plain RSocket: echoes request-response; a request-stream {@code "<count>:<size>"} gets count payloads of size bytes. */
	private static final class PlainResponder implements RSocket {
		@Override
		public Mono<Payload> requestResponse(Payload payload) {
			return Mono.just(payload);
		}

		@Override
		public Flux<Payload> requestStream(Payload payload) {
			String[] spec = payload.getDataUtf8().split(":");
			payload.release();
			long count = Long.parseLong(spec[0]);
			byte[] item = new byte[Integer.parseInt(spec[1])];
			return Flux.<Payload, Long>generate(() -> 0L, (i, sink) -> {
				if (i >= count) {
					sink.complete();
				}
				else {
					sink.next(DefaultPayload.create(item));
				}
				return i + 1;
			});
		}
	}

	private static void serveRaw(ServerSocket raw) {
		while (true) {
			try {
				Socket socket = raw.accept();
				socket.setTcpNoDelay(true);
				Thread t = new Thread(() -> echo(socket), "raw-echo-conn");
				t.setDaemon(true);
				t.start();
			}
			catch (IOException e) {
				return;
			}
		}
	}

	private static void echo(Socket socket) {
		byte[] buffer = new byte[MESSAGE];
		try (socket; DataInputStream in = new DataInputStream(socket.getInputStream()); OutputStream out = socket.getOutputStream()) {
			while (true) {
				in.readFully(buffer);
				out.write(buffer);
				out.flush();
			}
		}
		catch (IOException closed) {
			// the client went away
		}
	}
}
