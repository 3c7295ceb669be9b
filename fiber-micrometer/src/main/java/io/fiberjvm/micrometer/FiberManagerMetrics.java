package io.fiberjvm.micrometer;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import io.fiberjvm.manager.Manager;

/**
 * Micrometer meters for the calls made to one {@link Manager}, tagged {@code manager=<name>}. Through its
 * async proxies: counters {@code fiber.manager.calls} and {@code fiber.manager.calls.failed} (answered with
 * an error, or lost with the manager), the gauge {@code fiber.manager.calls.pending}, and the timer
 * {@code fiber.manager.call.latency} fed by {@link Manager#callLatencies()} from {@link #bindTo} until
 * {@link #close()}. On its shared objects, from every process of the run: the counter
 * {@code fiber.manager.shared.calls.failed} and the function timer {@code fiber.manager.shared.calls}
 * (count and summed serving time, as the manager process last reported them). The counter
 * {@code fiber.manager.restarts} counts restarts, asked for or made by its restart policy. Counters and gauges are
 * read from {@link Manager#stats()} when scraped. Needs {@code io.fiberjvm:fiber-async-manager} on the
 * classpath.
 */
public final class FiberManagerMetrics implements MeterBinder, AutoCloseable {

	private final Manager manager;
	private final Tags tags;
	private @Nullable Disposable feed;

	/** Meters for {@code manager}, tagged with its name. */
	public FiberManagerMetrics(Manager manager) {
		this.manager = Objects.requireNonNull(manager, "manager");
		this.tags = Tags.of("manager", manager.name());
	}

	@Override
	public synchronized void bindTo(MeterRegistry registry) {
		Objects.requireNonNull(registry, "registry");
		if (feed != null) {
			throw new IllegalStateException("these manager metrics are bound already; make one FiberManagerMetrics per registry");
		}
		// Micrometer holds its state object weakly: the registry outlives the meter, and the function holds the manager.
		FunctionCounter.builder("fiber.manager.calls", registry, r -> manager.stats().calls())
				.description("calls sent through async proxies, creations included").tags(tags).register(registry);
		FunctionCounter.builder("fiber.manager.calls.failed", registry, r -> manager.stats().failed())
				.description("calls answered with an error or lost with the manager").tags(tags).register(registry);
		Gauge.builder("fiber.manager.calls.pending", manager, m -> m.stats().pending()).strongReference(true)
				.description("calls sent and not answered yet").tags(tags).register(registry);
		FunctionTimer.builder("fiber.manager.shared.calls", registry, r -> manager.stats().sharedCalls(),
				r -> manager.stats().sharedCallTime().toNanos(), TimeUnit.NANOSECONDS)
				.description("calls served on the manager's shared objects, from any process of the run").tags(tags).register(registry);
		FunctionCounter.builder("fiber.manager.shared.calls.failed", registry, r -> manager.stats().sharedFailed())
				.description("calls on shared objects that failed").tags(tags).register(registry);
		FunctionCounter.builder("fiber.manager.restarts", registry, r -> manager.stats().restarts())
				.description("restarts of the manager's process, asked for or after a loss").tags(tags).register(registry);
		Timer latency = Timer.builder("fiber.manager.call.latency").description("a call's time from sending to its answer")
				.tags(tags).register(registry);
		feed = manager.callLatencies().subscribe(latency::record);
	}

	/** Stops feeding the latency timer. */
	@Override
	public synchronized void close() {
		if (feed != null) {
			feed.dispose();
		}
	}
}
