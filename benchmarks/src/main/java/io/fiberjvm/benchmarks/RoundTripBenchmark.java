package io.fiberjvm.benchmarks;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.util.DefaultPayload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Router;
import io.fiberjvm.transport.TransportSettings;
import io.fiberjvm.transport.rsocket.RSocketTransport;

/**
 * Request-response round trip of a 64-byte message between two JVMs on loopback, three ways in one
 * run: through Fiber's Transport SPI (along each {@link FiberPath}: the local socket, TCP, TCP with TLS), through plain
 * RSocket, and as a blocking-socket ping-pong (the floor). Sample mode gives p50 and p99.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
@State(Scope.Benchmark)
public class RoundTripBenchmark {

	private static final Duration WAIT = Duration.ofSeconds(10);

	/** The way Fiber's transport goes: the local socket, TCP, or TCP with TLS (tls=on). */
	@Param({"LOCAL", "TCP", "TLS"})
	public FiberPath path;

	private EchoServer server;
	private Connection fiber;
	private RSocket rsocket;
	private Socket raw;
	private DataInputStream rawIn;
	private OutputStream rawOut;
	private final byte[] message = new byte[EchoServerMain.MESSAGE];
	private final byte[] reply = new byte[EchoServerMain.MESSAGE];

	@Setup(Level.Trial)
	public void start() throws IOException {
		String secret = "bench-" + System.nanoTime();
		server = new EchoServer(secret, path);
		fiber = new RSocketTransport(TransportSettings.from(FiberConfig.defaults(), secret, path.tls()))
				.connect(new Endpoint(path.host(), server.fiberPort), "bench", Router.none())
				.block(WAIT);
		rsocket = server.plainRSocket(WAIT);
		raw = new Socket(InetAddress.getLoopbackAddress(), server.rawPort);
		raw.setTcpNoDelay(true);
		rawIn = new DataInputStream(raw.getInputStream());
		rawOut = raw.getOutputStream();
	}

	@TearDown(Level.Trial)
	public void stop() throws IOException {
		fiber.dispose();
		rsocket.dispose();
		raw.close();
		server.close();
	}

	@Benchmark
	public byte[] fiberTransport() {
		return fiber.requestResponse("echo", message).block(WAIT);
	}

	@Benchmark
	public Payload plainRSocket() {
		Payload p = rsocket.requestResponse(DefaultPayload.create(message)).block(WAIT);
		p.release();
		return p;
	}

	@Benchmark
	public byte[] rawSocketPingPong() throws IOException {
		rawOut.write(message);
		rawOut.flush();
		rawIn.readFully(reply);
		return reply;
	}
}
