package io.fiberjvm.benchmarks;

import java.io.IOException;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.queue.FiberQueue;

/**
 * Items per second from a producer in a child JVM to a consumer in this one, through a queue's
 * {@code send} and {@code receive} with backpressure, against plain RSocket request-stream of the same
 * payloads from another JVM, in the same run; the child reaches this JVM along each {@link FiberPath}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(1)
@State(Scope.Benchmark)
public class QueueThroughputBenchmark {

	private static final int ITEMS = 50_000;
	private static final Duration WAIT = Duration.ofMinutes(2);

	@Param({"64", "4096"})
	public int size;

	/** The way the child reaches this JVM: the local socket, TCP, or TCP with TLS (tls=on). */
	@Param({"LOCAL", "TCP", "TLS"})
	public FiberPath path;

	private Fiber fiber;
	private FiberQueue<byte[]> data;
	private FiberQueue<Integer> orders;
	private FiberProcess producer;
	private EchoServer plain;
	private RSocket rsocket;

	@Setup(Level.Trial)
	public void start() throws IOException {
		fiber = Fiber.builder().set("host", path.host()).set("tls", path.tls() ? "on" : "off").open();
		data = fiber.queue(byte[].class, 8192);
		orders = fiber.queue(Integer.class);
		FiberQueue<byte[]> items = data;
		FiberQueue<Integer> asked = orders;
		int bytes = size;
		producer = fiber.process(() -> {
			byte[] item = new byte[bytes];
			asked.receive(1).concatMap(n -> items.send(Flux.range(0, n).map(i -> item))).then().block();
		}).name("producer").start().block(WAIT);
		producer.onRunning().block(WAIT);
		plain = new EchoServer("unused-" + System.nanoTime());
		rsocket = plain.plainRSocket(WAIT);
	}

	@TearDown(Level.Trial)
	public void stop() {
		rsocket.dispose();
		plain.close();
		fiber.close();
	}

	@Benchmark
	@OperationsPerInvocation(ITEMS)
	public long fiberQueue() {
		orders.put(ITEMS).block(WAIT);
		return data.receive(2048).take(ITEMS).count().block(WAIT);
	}

	@Benchmark
	@OperationsPerInvocation(ITEMS)
	public long plainRSocketStream() {
		return rsocket.requestStream(DefaultPayload.create(ITEMS + ":" + size))
				.doOnNext(Payload::release)
				.count()
				.block(WAIT);
	}
}
