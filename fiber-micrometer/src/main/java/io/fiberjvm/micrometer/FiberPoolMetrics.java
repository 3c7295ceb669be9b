package io.fiberjvm.micrometer;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.Disposables;

import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolStats;

/**
 * Micrometer meters for one {@link FiberPool}, tagged {@code pool=<name>} plus any tags given.
 *
 * <p>Counters (read from {@link FiberPool#stats()} when the registry is scraped):
 * {@code fiber.pool.tasks.submitted}, {@code .completed}, {@code .failed} (the function threw),
 * {@code .lost} (attempts lost with their worker), {@code .retried}; {@code fiber.pool.workers.started},
 * {@code .lost}, {@code .replaced}. Gauges: {@code fiber.pool.tasks.queued}, {@code fiber.pool.tasks.running},
 * {@code fiber.pool.workers} (taking tasks), {@code fiber.pool.workers.target}, {@code .min} and {@code .max} (equal to the
 * target for a pool of a fixed size), {@code fiber.pool.queue.wait} (seconds the task that has waited longest has waited). Timer:
 * {@code fiber.pool.task.latency}, each task from submission to its final outcome, fed by
 * {@link FiberPool#taskLatencies()} from {@link #bindTo} until {@link #close()}.
 *
 * <pre>{@code
 * try (FiberPoolMetrics metrics = new FiberPoolMetrics(pool, "simulations")) {
 *     metrics.bindTo(registry);
 *     ...
 * }
 * }</pre>
 */
public final class FiberPoolMetrics implements MeterBinder, AutoCloseable {

	private final FiberPool pool;
	private final Tags tags;
	private final Disposable.Composite feeds = Disposables.composite();
	private final List<Meter> meters = new ArrayList<>();
	private @Nullable MeterRegistry registry;

	/** Meters for {@code pool}, tagged {@code pool=<name>} and with {@code tags}. */
	public FiberPoolMetrics(FiberPool pool, String name, Tag... tags) {
		this.pool = Objects.requireNonNull(pool, "pool");
		this.tags = Tags.of("pool", Objects.requireNonNull(name, "name")).and(tags);
	}

	@Override
	public synchronized void bindTo(MeterRegistry registry) {
		Objects.requireNonNull(registry, "registry");
		if (this.registry != null) {
			throw new IllegalStateException("these pool metrics are bound already; make one FiberPoolMetrics per registry");
		}
		this.registry = registry;
		counter(registry, "fiber.pool.tasks.submitted", "tasks submitted (each once, whatever its attempts)", PoolStats::submitted);
		counter(registry, "fiber.pool.tasks.completed", "task attempts that returned a result", PoolStats::completed);
		counter(registry, "fiber.pool.tasks.failed", "task attempts whose function threw", PoolStats::failed);
		counter(registry, "fiber.pool.tasks.lost", "task attempts lost with their worker", PoolStats::lost);
		counter(registry, "fiber.pool.tasks.requeued", "tasks a lost worker held, queued again without using an attempt",
				PoolStats::requeued);
		counter(registry, "fiber.pool.tasks.retried", "task attempts started again after a loss or failure", PoolStats::retried);
		counter(registry, "fiber.pool.workers.started", "workers started", PoolStats::workersStarted);
		counter(registry, "fiber.pool.workers.lost", "workers that ended while the pool wanted them", PoolStats::workersLost);
		counter(registry, "fiber.pool.workers.replaced", "workers started to replace lost ones", PoolStats::workersReplaced);
		gauge(registry, "fiber.pool.tasks.queued", "tasks waiting for a worker", PoolStats::queued);
		gauge(registry, "fiber.pool.tasks.running", "tasks handed to workers and not answered yet", PoolStats::inFlight);
		gauge(registry, "fiber.pool.workers", "workers taking tasks", PoolStats::workers);
		gauge(registry, "fiber.pool.workers.target", "the number of workers the pool keeps", PoolStats::target);
		gauge(registry, "fiber.pool.workers.min", "the fewest workers the pool keeps", PoolStats::minWorkers);
		gauge(registry, "fiber.pool.workers.max", "the most workers the pool grows to", PoolStats::maxWorkers);
		gauge(registry, "fiber.pool.queue.wait", "seconds the task that has waited longest has waited for a worker",
				stats -> stats.queueWait().toNanos() / 1e9);
		Timer latency = Timer.builder("fiber.pool.task.latency").description("a task's time from submission to its final outcome")
				.tags(tags).register(registry);
		meters.add(latency);
		feeds.add(pool.taskLatencies().subscribe(latency::record));
	}

	private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<PoolStats> value) {
		// Micrometer holds its state object weakly: the registry outlives the meter, and the function holds the pool.
		meters.add(FunctionCounter.builder(name, registry, r -> value.applyAsDouble(pool.stats())).description(description).tags(tags)
				.register(registry));
	}

	private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<PoolStats> value) {
		meters.add(Gauge.builder(name, pool, p -> value.applyAsDouble(p.stats())).strongReference(true).description(description)
				.tags(tags).register(registry));
	}

	/** Stops feeding the latency timer and removes these meters from the registry. */
	@Override
	public synchronized void close() {
		feeds.dispose();
		if (registry != null) {
			meters.forEach(registry::remove);
			meters.clear();
		}
	}
}
