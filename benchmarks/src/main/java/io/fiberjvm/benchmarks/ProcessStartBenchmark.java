package io.fiberjvm.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import io.rsocket.RSocket;
import io.rsocket.SocketAcceptor;
import io.rsocket.core.RSocketConnector;
import io.rsocket.core.RSocketServer;
import io.rsocket.transport.netty.client.TcpClientTransport;
import io.rsocket.transport.netty.server.CloseableChannel;
import io.rsocket.transport.netty.server.TcpServerTransport;
import io.rsocket.util.DefaultPayload;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;

/**
 * From "start a job-backed process" to its first message reaching the parent (the child asking for
 * its target), against two floors: starting a plain JVM on the same classpath and reading the first
 * line it prints, and starting a JVM on the same classpath that connects to this one with plain RSocket
 * (the transport a Fiber process talks through, with no Fiber in it) until its first request arrives. Each
 * alone, and eight at once (a pool's start on two cores).
 *
 * <p>The plain RSocket client gets what a Fiber child gets from its parent: Netty's flight-recorder events
 * off, and a class archive of its own classpath written by one untimed run first (the AOT cache on JDK 25
 * and later, the class-data archive before).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 15)
@Fork(1)
@State(Scope.Benchmark)
public class ProcessStartBenchmark {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private static final int EIGHT = 8;

	private Fiber fiber;
	private final List<FiberProcess> lastProcesses = new ArrayList<>();
	private final List<Process> lastPlain = new ArrayList<>();
	private CloseableChannel firstMessages;
	private final Semaphore arrived = new Semaphore(0);
	private List<String> clientCommand;

	/** The target of the measured process: returns at once. */
	public static final class Noop implements Runnable {
		@Override
		public void run() {
		}
	}

	/** The plain JVM's main: one line. */
	public static final class Hello {
		public static void main(String[] args) {
			System.out.println("hello");
		}
	}

	/** The plain RSocket client's main: connects to the port given, sends one request, and exits once answered. */
	public static final class FirstMessageClient {
		public static void main(String[] args) {
			RSocket socket = RSocketConnector.create().connect(TcpClientTransport.create("127.0.0.1", Integer.parseInt(args[0])))
					.block(WAIT);
			if (socket == null) {
				throw new IllegalStateException("no connection");
			}
			socket.requestResponse(DefaultPayload.create("first")).block(WAIT);
			socket.dispose();
		}
	}

	@Setup(Level.Trial)
	public void open() throws IOException, InterruptedException {
		fiber = Fiber.open();
		// Bind the parent's server before measuring.
		fiber.address().block(WAIT);
		firstMessages = RSocketServer.create(SocketAcceptor.forRequestResponse(payload -> {
			arrived.release();
			return Mono.just(payload);
		})).bind(TcpServerTransport.create("127.0.0.1", 0)).block(WAIT);
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Path archive = Files.createTempDirectory("first-message").resolve(Runtime.version().feature() >= 25 ? "client.aot" : "client.jsa");
		List<String> client = List.of("-cp", System.getProperty("java.class.path"), FirstMessageClient.class.getName(),
				Integer.toString(firstMessages.address().getPort()));
		List<String> writing = new ArrayList<>(List.of(java, "-Dio.netty.jfr.enabled=false",
				(Runtime.version().feature() >= 25 ? "-XX:AOTCacheOutput=" : "-XX:ArchiveClassesAtExit=") + archive));
		writing.addAll(client);
		Process writer = new ProcessBuilder(writing).inheritIO().start();
		if (!writer.waitFor(2, TimeUnit.MINUTES) || writer.exitValue() != 0 || !Files.exists(archive)) {
			throw new IllegalStateException("the plain RSocket client wrote no class archive at " + archive);
		}
		arrived.drainPermits();
		clientCommand = new ArrayList<>(List.of(java, "-Dio.netty.jfr.enabled=false",
				(Runtime.version().feature() >= 25 ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + archive));
		clientCommand.addAll(client);
	}

	@TearDown(Level.Invocation)
	public void reap() throws InterruptedException {
		for (FiberProcess process : lastProcesses) {
			process.onExit().block(WAIT);
		}
		lastProcesses.clear();
		for (Process process : lastPlain) {
			process.waitFor(60, TimeUnit.SECONDS);
		}
		lastPlain.clear();
	}

	@TearDown(Level.Trial)
	public void close() {
		fiber.close();
		firstMessages.dispose();
	}

	@Benchmark
	public void fiberProcessToFirstMessage() {
		fiberProcesses(1);
	}

	@Benchmark
	public void fiberProcessesEightToFirstMessage() {
		fiberProcesses(EIGHT);
	}

	private void fiberProcesses(int count) {
		List<FiberProcess> started = Flux.range(0, count).flatMap(i -> fiber.process(Noop.class).start(), count).collectList().block(WAIT);
		lastProcesses.addAll(started);
		for (FiberProcess process : started) {
			process.onRunning().block(WAIT);
		}
	}

	@Benchmark
	public void plainRSocketJvmToFirstMessage() throws IOException, InterruptedException {
		plainRSocketJvms(1);
	}

	@Benchmark
	public void plainRSocketJvmsEightToFirstMessage() throws IOException, InterruptedException {
		plainRSocketJvms(EIGHT);
	}

	private void plainRSocketJvms(int count) throws IOException, InterruptedException {
		for (int i = 0; i < count; i++) {
			lastPlain.add(new ProcessBuilder(clientCommand).redirectOutput(ProcessBuilder.Redirect.DISCARD)
					.redirectError(ProcessBuilder.Redirect.INHERIT).start());
		}
		if (!arrived.tryAcquire(count, WAIT.toSeconds(), TimeUnit.SECONDS)) {
			throw new IllegalStateException("the plain RSocket clients' first requests did not all arrive within " + WAIT);
		}
	}

	@Benchmark
	public String plainJvmToFirstLine() throws IOException {
		Process plain = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), Hello.class.getName())).start();
		lastPlain.add(plain);
		BufferedReader out = new BufferedReader(new InputStreamReader(plain.getInputStream(), StandardCharsets.UTF_8));
		return out.readLine();
	}
}
