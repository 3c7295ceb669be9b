package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
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
import reactor.core.Disposable;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.queue.FiberQueue;

/**
 * One item out through a queue to an echo child and back through a second queue, against plain RSocket
 * request-response to another JVM, in the same run. Sample mode gives p50 and p99.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
@State(Scope.Benchmark)
public class QueueRoundTripBenchmark {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private Fiber fiber;
	private FiberQueue<byte[]> out;
	private final BlockingQueue<byte[]> back = new LinkedBlockingQueue<>();
	private Disposable receiving;
	private FiberProcess echo;
	private EchoServer plain;
	private RSocket rsocket;
	private final byte[] message = new byte[64];

	/** Where the echo child's consumer runs: the default worker thread, or the network thread that read the item. */
	@Param({"worker", "network"})
	public String echoDelivery;

	@Setup(Level.Trial)
	public void start() throws IOException {
		fiber = Fiber.open();
		out = fiber.queue(byte[].class, 64);
		FiberQueue<byte[]> there = out;
		FiberQueue<byte[]> home = fiber.queue(byte[].class, 64);
		boolean onNetwork = echoDelivery.equals("network");
		echo = fiber.process(() -> there.receive(1, onNetwork ? Schedulers.immediate() : Schedulers.boundedElastic())
				.concatMap(home::put).then().block()).name("echo").start().block(WAIT);
		echo.onRunning().block(WAIT);
		receiving = home.receive(1).subscribe(back::add);
		plain = new EchoServer("unused-" + System.nanoTime());
		rsocket = plain.plainRSocket(WAIT);
	}

	@TearDown(Level.Trial)
	public void stop() {
		receiving.dispose();
		rsocket.dispose();
		plain.close();
		fiber.close();
	}

	@Benchmark
	public byte[] throughTwoQueues() throws InterruptedException {
		out.put(message).block(WAIT);
		return back.poll(30, TimeUnit.SECONDS);
	}

	@Benchmark
	public Payload plainRSocketRequestResponse() {
		Payload p = rsocket.requestResponse(DefaultPayload.create(message)).block(WAIT);
		p.release();
		return p;
	}
}
