package io.fiberjvm.micrometer;

import java.util.Objects;
import java.util.function.ToDoubleFunction;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;

import io.fiberjvm.Fiber;
import io.fiberjvm.transport.TransportStats;

/**
 * Micrometer meters for the listening server of one {@link Fiber} (the one its children and peers
 * connect to), tagged {@code run=<run id>}, read from {@link Fiber#transportStats()} when scraped:
 * the gauge {@code fiber.transport.connections} (open now) and the counters
 * {@code fiber.transport.connections.accepted}, {@code fiber.transport.connections.rejected} (wrong
 * secret, not frames, a frame over the limit), {@code fiber.transport.bytes.received} and
 * {@code fiber.transport.bytes.sent}.
 */
public final class FiberTransportMetrics implements MeterBinder {

	private final Fiber fiber;
	private final Tags tags;

	/** Meters for {@code fiber}'s server. */
	public FiberTransportMetrics(Fiber fiber) {
		this.fiber = Objects.requireNonNull(fiber, "fiber");
		this.tags = Tags.of("run", fiber.runId());
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Objects.requireNonNull(registry, "registry");
		Gauge.builder("fiber.transport.connections", fiber, f -> f.transportStats().connections()).strongReference(true)
				.description("authenticated connections open now").tags(tags).register(registry);
		counter(registry, "fiber.transport.connections.accepted", "connections accepted", TransportStats::accepted);
		counter(registry, "fiber.transport.connections.rejected", "connections refused or closed for bad input", TransportStats::rejected);
		counter(registry, "fiber.transport.bytes.received", "bytes of frames read from peers", TransportStats::bytesReceived);
		counter(registry, "fiber.transport.bytes.sent", "bytes of frames written to peers", TransportStats::bytesSent);
	}

	private void counter(MeterRegistry registry, String name, String description, ToDoubleFunction<TransportStats> value) {
		// Micrometer holds its state object weakly: the registry outlives the meter, and the function holds the runtime.
		FunctionCounter.builder(name, registry, r -> value.applyAsDouble(fiber.transportStats())).description(description).tags(tags)
				.register(registry);
	}
}
