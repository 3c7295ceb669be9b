package io.fiberjvm.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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
import reactor.core.Disposable;
import reactor.core.observability.micrometer.Micrometer;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.micrometer.FiberPoolMetrics;
import io.fiberjvm.micrometer.FiberTransportMetrics;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.progress.Progress;

/**
 * What watching a pool costs: no-op tasks per second through a pool of two worker JVMs with nothing
 * watching (the baseline, {@code none}), with its Micrometer meters bound (a latency timer fed per task,
 * and the transport's counters), with a progress report subscribed, and with Reactor's own metrics
 * tapped on the map. One operation is one task: each invocation maps 10,000 tasks of {@code x -> x}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(1)
@State(Scope.Benchmark)
public class ObservabilityOverheadBenchmark {

	// The same workload as PoolThroughputBenchmark's.
	private static final int TASKS = PoolThroughputBenchmark.TASKS;
	private static final int WORKERS = PoolThroughputBenchmark.WORKERS;
	private static final Duration WAIT = PoolThroughputBenchmark.WAIT;

	/** What watches the pool. */
	@Param({"none", "micrometer", "progress", "reactor-tap"})
	public String watching;

	private Fiber fiber;
	private FiberPool pool;
	private SimpleMeterRegistry registry;
	private FiberPoolMetrics poolMetrics;

	@Setup(Level.Trial)
	public void start() throws InterruptedException {
		fiber = Fiber.open();
		pool = fiber.pool(WORKERS).name("watched").open();
		registry = new SimpleMeterRegistry();
		if (watching.equals("micrometer")) {
			poolMetrics = new FiberPoolMetrics(pool, "watched");
			poolMetrics.bindTo(registry);
			new FiberTransportMetrics(fiber).bindTo(registry);
		}
		PoolOverheadHarness.awaitWorkers(pool, WORKERS, Duration.ofMinutes(3));
	}

	@TearDown(Level.Trial)
	public void stop() throws InterruptedException {
		if (poolMetrics != null) {
			poolMetrics.close();
		}
		PoolOverheadHarness.closeAndWait(pool, WAIT);
		fiber.close();
	}

	@Benchmark
	@OperationsPerInvocation(TASKS)
	public long map() {
		Flux<Integer> results = pool.map(PoolThroughputBenchmark.IDENTITY, PoolThroughputBenchmark.ITEMS);
		switch (watching) {
			case "progress" -> {
				Progress progress = Progress.expecting(TASKS);
				Disposable report = progress.snapshots().subscribe();
				try {
					return results.transform(progress::count).count().block(WAIT);
				}
				finally {
					report.dispose();
				}
			}
			case "reactor-tap" -> {
				return results.tap(Micrometer.metrics(registry)).count().block(WAIT);
			}
			default -> {
				return results.count().block(WAIT);
			}
		}
	}
}
