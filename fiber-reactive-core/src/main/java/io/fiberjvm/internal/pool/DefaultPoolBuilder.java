package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import reactor.util.retry.Retry;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolBuilder;
import io.fiberjvm.pool.PoolScaling;
import io.fiberjvm.pool.WorkerLostException;
import io.fiberjvm.runtime.RuntimeContext;

/** The {@link PoolBuilder} of a runtime: an immutable spec whose options return a copy. */
public final class DefaultPoolBuilder implements PoolBuilder {

	/** The default retry: worker losses only, two more attempts (three in all). */
	static final Retry DEFAULT_RETRY = Retry.max(2).filter(WorkerLostException.class::isInstance);

	private final RuntimeContext runtime;
	private final int workers;
	private final String name;
	private final ResourceSpec resources;
	private final @Nullable FiberRunnable initializer;
	private final boolean idempotent;
	private final Retry retry;
	private final int chunkSize;
	/** The tasks' deadline, or 0 for none. */
	private final long timeoutNanos;
	private final RestartBackoff backoff;
	private final int perProcess;
	/** How the pool sizes itself, starting from {@code workers}; null for a fixed size. */
	private final @Nullable PoolScaling scaling;

	private DefaultPoolBuilder(RuntimeContext runtime, int workers, @Nullable PoolScaling scaling, String name, ResourceSpec resources,
			@Nullable FiberRunnable initializer, boolean idempotent, Retry retry, int chunkSize, long timeoutNanos,
			RestartBackoff backoff, int perProcess) {
		this.runtime = runtime;
		this.workers = workers;
		this.scaling = scaling;
		this.name = name;
		this.resources = resources;
		this.initializer = initializer;
		this.idempotent = idempotent;
		this.retry = retry;
		this.chunkSize = chunkSize;
		this.timeoutNanos = timeoutNanos;
		this.backoff = backoff;
		this.perProcess = perProcess;
	}

	/** A pool of {@code workers} workers on {@code runtime}, named {@code name} unless told otherwise. */
	public static PoolBuilder of(RuntimeContext runtime, int workers, String name) {
		Objects.requireNonNull(runtime, "runtime");
		if (workers < 1) {
			throw new IllegalArgumentException("a pool needs at least 1 worker, not " + workers);
		}
		return new DefaultPoolBuilder(runtime, workers, null, name, ResourceSpec.NONE, null, true, DEFAULT_RETRY, 0, 0,
				RestartBackoff.DEFAULT, 1);
	}

	/** An autoscaling pool on {@code runtime}, sized as {@code scaling} says, named {@code name} unless told otherwise. */
	public static PoolBuilder scaling(RuntimeContext runtime, PoolScaling scaling, String name) {
		Objects.requireNonNull(runtime, "runtime");
		Objects.requireNonNull(scaling, "scaling");
		return new DefaultPoolBuilder(runtime, scaling.min(), scaling, name, ResourceSpec.NONE, null, true, DEFAULT_RETRY, 0, 0,
				RestartBackoff.DEFAULT, 1);
	}

	@Override
	public PoolBuilder name(String name) {
		Objects.requireNonNull(name, "name");
		if (!name.matches("[A-Za-z0-9][A-Za-z0-9-]{0,30}")) {
			throw new IllegalArgumentException("a pool name is 1 to 31 letters, digits and dashes, starting with a letter or digit; not '" + name + "'");
		}
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, initializer, idempotent, retry, chunkSize, timeoutNanos, backoff, perProcess);
	}

	@Override
	public PoolBuilder cpu(double cpu) {
		return withResources(resources.withCpu(cpu));
	}

	@Override
	public PoolBuilder memory(String memory) {
		return withResources(resources.withMemory(memory));
	}

	@Override
	public PoolBuilder gpu(int gpu) {
		return withResources(resources.withGpu(gpu));
	}

	@Override
	public PoolBuilder placement(io.fiberjvm.Placement placement) {
		return withResources(resources.withPlacement(Objects.requireNonNull(placement, "placement")));
	}

	private PoolBuilder withResources(ResourceSpec changed) {
		return new DefaultPoolBuilder(runtime, workers, scaling, name, changed, initializer, idempotent, retry, chunkSize, timeoutNanos, backoff, perProcess);
	}

	@Override
	public PoolBuilder initializer(FiberRunnable initializer) {
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, Objects.requireNonNull(initializer, "initializer"),
				idempotent, retry, chunkSize, timeoutNanos, backoff, perProcess);
	}

	@Override
	public PoolBuilder idempotent(boolean idempotent) {
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, initializer, idempotent, retry, chunkSize, timeoutNanos, backoff, perProcess);
	}

	@Override
	public PoolBuilder retry(Retry retry) {
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, initializer, idempotent, Objects.requireNonNull(retry, "retry"),
				chunkSize, timeoutNanos, backoff, perProcess);
	}

	@Override
	public PoolBuilder chunkSize(int tasks) {
		if (tasks < 0) {
			throw new IllegalArgumentException("chunk size " + tasks + " must be 0 (adaptive) or more");
		}
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, initializer, idempotent, retry, tasks, timeoutNanos, backoff, perProcess);
	}

	@Override
	public PoolBuilder taskTimeout(Duration timeout) {
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, initializer, idempotent, retry, chunkSize,
				ProcessPool.timeoutNanos(timeout), backoff, perProcess);
	}

	@Override
	public PoolBuilder restartBackoff(Duration min, Duration max) {
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, initializer, idempotent, retry, chunkSize, timeoutNanos,
				new RestartBackoff(Objects.requireNonNull(min, "min"), Objects.requireNonNull(max, "max")), perProcess);
	}

	@Override
	public PoolBuilder workersPerProcess(int workersPerProcess) {
		if (workersPerProcess < 1) {
			throw new IllegalArgumentException("workers per process must be at least 1, not " + workersPerProcess);
		}
		return new DefaultPoolBuilder(runtime, workers, scaling, name, resources, initializer, idempotent, retry, chunkSize, timeoutNanos, backoff,
				workersPerProcess);
	}

	@Override
	public FiberPool open() {
		ShippedValues values = runtime.values();
		byte[] init = initializer == null ? null : values.writeFunction(initializer, "the pool's initializer");
		List<String> initAllow = initializer == null ? List.of() : List.of(ShippedValues.packagePattern(initializer.getClass()));
		if (init != null) {
			// Read back here, so a capture the workers would refuse fails now and not in every worker.
			values.readFunction(init, initAllow, Runnable.class, "the pool's initializer");
		}
		PoolCore core = new PoolCore(runtime, name, workers, scaling, perProcess, resources, init, initAllow, backoff);
		core.open();
		return new ProcessPool(core, idempotent, retry, chunkSize, timeoutNanos);
	}
}
