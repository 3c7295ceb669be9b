package io.fiberjvm.micrometer;

import java.util.Objects;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.queue.QueueStats;

/**
 * Micrometer meters for one {@link FiberQueue} hosted in this process, tagged {@code queue=<name>}, read
 * from {@link FiberQueue#localStats()} when scraped: gauges {@code fiber.queue.depth} (waiting for a
 * consumer), {@code fiber.queue.unacknowledged}, {@code fiber.queue.puts.blocked}; counters
 * {@code fiber.queue.puts} and {@code fiber.queue.takes} (their rates are the put and take rates). Bind it
 * in the process that made the queue: a handle to a queue hosted elsewhere is refused.
 */
public final class FiberQueueMetrics implements MeterBinder {

	private final FiberQueue<?> queue;
	private final Tags tags;

	/** Meters for {@code queue}, which this process must host. */
	public FiberQueueMetrics(FiberQueue<?> queue, String name) {
		this.queue = Objects.requireNonNull(queue, "queue");
		this.tags = Tags.of("queue", Objects.requireNonNull(name, "name"));
		if (queue.localStats().isEmpty()) {
			throw new IllegalArgumentException("queue '" + name + "' is hosted in another process; bind its metrics in the process "
					+ "that made it");
		}
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Objects.requireNonNull(registry, "registry");
		gauge(registry, "fiber.queue.depth", "items waiting for a consumer", QueueStats::depth);
		gauge(registry, "fiber.queue.unacknowledged", "items handed to consumers and not yet acknowledged", QueueStats::unacknowledged);
		gauge(registry, "fiber.queue.puts.blocked", "puts waiting for room", QueueStats::blockedPuts);
		counter(registry, "fiber.queue.puts", "items the queue accepted", QueueStats::puts);
		counter(registry, "fiber.queue.takes", "items consumers took and acknowledged", QueueStats::takes);
	}

	private double read(ToDoubleFunction<QueueStats> value) {
		return queue.localStats().map(value::applyAsDouble).orElse(Double.NaN);
	}

	private void gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<QueueStats> value) {
		Gauge.builder(name, this, metrics -> metrics.read(value)).strongReference(true).description(description).tags(tags)
				.register(registry);
	}

	private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<QueueStats> value) {
		// Micrometer holds its state object weakly: the registry outlives the meter, and the function holds the queue.
		FunctionCounter.builder(name, registry, r -> read(value)).description(description).tags(tags).register(registry);
	}
}
