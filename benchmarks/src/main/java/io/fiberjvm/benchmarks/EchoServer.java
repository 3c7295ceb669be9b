package io.fiberjvm.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.rsocket.RSocket;
import io.rsocket.core.RSocketConnector;
import io.rsocket.transport.netty.client.TcpClientTransport;

/** Starts {@link EchoServerMain} in a child JVM and reads its ports. */
final class EchoServer implements AutoCloseable {

	final Process process;
	final int fiberPort;
	final int rsocketPort;
	final int rawPort;

	EchoServer(String secret) throws IOException {
		this(secret, FiberPath.LOCAL);
	}

	/** A server whose Fiber transport is reached along {@code path}. */
	EchoServer(String secret, FiberPath path) throws IOException {
		ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), EchoServerMain.class.getName()))
				.redirectError(ProcessBuilder.Redirect.INHERIT);
		builder.environment().put("BENCH_SECRET", secret);
		builder.environment().put("BENCH_PATH", path.name());
		this.process = builder.start();
		BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = out.readLine()) != null && !line.startsWith("PORTS ")) {
			// skip anything printed before
		}
		if (line == null) {
			throw new IOException("the echo server JVM ended before printing its ports");
		}
		Matcher m = Pattern.compile("fiber=(\\d+) rsocket=(\\d+) raw=(\\d+)").matcher(line);
		if (!m.find()) {
			throw new IOException("unexpected line from the echo server: " + line);
		}
		this.fiberPort = Integer.parseInt(m.group(1));
		this.rsocketPort = Integer.parseInt(m.group(2));
		this.rawPort = Integer.parseInt(m.group(3));
	}

	/** A plain RSocket client of the server's RSocket echo, with no Fiber in between: the baseline. */
	RSocket plainRSocket(Duration wait) {
		return RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", rsocketPort)).block(wait);
	}

	@Override
	public void close() {
		process.destroyForcibly();
	}
}
