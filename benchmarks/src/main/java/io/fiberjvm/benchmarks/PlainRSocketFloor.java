package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketServer;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.DefaultPayload;
import reactor.core.publisher.Mono;

/**
 * The fast-path table's floor column: what the transport the design builds on costs with no Fiber in it, measured the
 * way the probes measure this project.
 *
 * <p>The contract: the pool start is {@code workers} JVMs on this classpath started at once, each connecting to this
 * JVM with plain RSocket over TCP and sending one request, timed until every request has arrived; the JVMs get what
 * a Fiber child gets (Netty's flight-recorder events off, a class archive of the classpath written by one untimed run
 * first). The queue echo is a 64-byte request-response to an echo JVM ({@link EchoServerMain}), one at a time,
 * {@code block()} per call, the same number of round trips and passes as the queue's. There is no no-op floor: a pool
 * is Fiber's.
 */
final class PlainRSocketFloor {

	static final String NAME = "plain RSocket, no Fiber";
	private static final Duration WAIT = Duration.ofMinutes(3);

	private PlainRSocketFloor() {
	}

	/** Runs the pool-start and queue-echo floors into a new column, as {@code options} asks. */
	static FastPathColumn measure(FastPathHarness.Options options) throws IOException, InterruptedException {
		FastPathColumn column = new FastPathColumn(NAME);
		if (options.selects(FastPathHarness.POOL_START, column)) {
			poolStart(options, column);
		}
		if (options.selects(FastPathHarness.QUEUE_ECHO, column)) {
			echo(options, column);
		}
		column.missing(FastPathHarness.NOOP, "a pool is Fiber's own: no floor without it");
		column.about(String.format(Locale.ROOT, "%s %s, RSocket over TCP on loopback, with no Fiber", System.getProperty("java.vm.name"),
				System.getProperty("java.version")));
		return column;
	}

	private static void poolStart(FastPathHarness.Options options, FastPathColumn column) throws IOException, InterruptedException {
		Semaphore arrived = new Semaphore(0);
		CloseableChannel server = RSocketServer.create(SocketAcceptor.forRequestResponse(payload -> {
			arrived.release();
			return Mono.just(payload);
		})).bind(TcpServerTransport.create("127.0.0.1", 0)).block(WAIT);
		try {
			String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
			boolean aot = Runtime.version().feature() >= 25;
			Path archive = Files.createTempDirectory("plain-rsocket-floor").resolve(aot ? "client.aot" : "client.jsa");
			List<String> client = List.of("-cp", System.getProperty("java.class.path"),
					ProcessStartBenchmark.FirstMessageClient.class.getName(), Integer.toString(server.address().getPort()));
			// Untimed: the archive is written as the first client exits, as a Fiber child's is.
			List<Process> writer = start(command(java, (aot ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + archive, client), 1);
			await(arrived, 1);
			if (!writer.get(0).waitFor(2, TimeUnit.MINUTES) || !Files.exists(archive)) {
				throw new IllegalStateException("the plain RSocket client wrote no class archive at " + archive);
			}
			List<String> command = command(java, (aot ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + archive, client);
			for (int run = 1; run <= options.runs(); run++) {
				long start = System.nanoTime();
				List<Process> jvms = start(command, FastPathHarness.POOL_START_WORKERS);
				await(arrived, FastPathHarness.POOL_START_WORKERS);
				double seconds = (System.nanoTime() - start) / 1e9;
				for (Process jvm : jvms) {
					jvm.waitFor(1, TimeUnit.MINUTES);
				}
				FastPathHarness.progress(String.format(Locale.ROOT, "%s, pool-start run %d: %d JVMs' first requests after %.3f s", NAME,
						run, FastPathHarness.POOL_START_WORKERS, seconds));
				column.add(FastPathHarness.POOL_START, "seconds", seconds);
			}
		}
		finally {
			server.dispose();
		}
	}

	private static List<String> command(String java, String archiveOption, List<String> client) {
		List<String> command = new ArrayList<>(List.of(java, "-Dio.netty.jfr.enabled=false", archiveOption));
		command.addAll(client);
		return command;
	}

	private static List<Process> start(List<String> command, int count) throws IOException {
		List<Process> started = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			started.add(new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
					.redirectError(ProcessBuilder.Redirect.INHERIT).start());
		}
		return started;
	}

	private static void await(Semaphore arrived, int count) throws InterruptedException {
		if (!arrived.tryAcquire(count, WAIT.toSeconds(), TimeUnit.SECONDS)) {
			throw new IllegalStateException("the plain RSocket clients' first requests did not all arrive within " + WAIT);
		}
	}

	private static void echo(FastPathHarness.Options options, FastPathColumn column) throws IOException {
		try (EchoServer server = new EchoServer("floor-" + System.nanoTime())) {
			RSocket client = server.plainRSocket(WAIT);
			try {
				byte[] message = new byte[EchoServerMain.MESSAGE];
				for (int warmup = 0; warmup < options.warmups(); warmup++) {
					pass(client, message, options.roundTrips());
				}
				for (int run = 1; run <= options.runs(); run++) {
					long[] nanos = pass(client, message, options.roundTrips());
					Arrays.sort(nanos);
					double p50 = FastPathHarness.percentile(nanos, 0.50) / 1e3;
					double p99 = FastPathHarness.percentile(nanos, 0.99) / 1e3;
					FastPathHarness.progress(String.format(Locale.ROOT, "%s, queue-echo run %d: p50 %.1f µs, p99 %.1f µs", NAME, run, p50, p99));
					column.add(FastPathHarness.QUEUE_ECHO, "p50_us", p50);
					column.add(FastPathHarness.QUEUE_ECHO, "p99_us", p99);
				}
			}
			finally {
				client.dispose();
			}
		}
	}

	private static long[] pass(RSocket client, byte[] message, int roundTrips) {
		long[] nanos = new long[roundTrips];
		for (int i = 0; i < roundTrips; i++) {
			long start = System.nanoTime();
			Payload answer = client.requestResponse(DefaultPayload.create(message)).block(WAIT);
			nanos[i] = System.nanoTime() - start;
			if (answer == null || answer.data().readableBytes() != message.length) {
				throw new IllegalStateException("the echo JVM did not answer the " + message.length + " bytes it was sent");
			}
			answer.release();
		}
		return nanos;
	}
}
