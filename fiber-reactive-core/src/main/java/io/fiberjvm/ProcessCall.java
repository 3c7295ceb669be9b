package io.fiberjvm;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import reactor.core.publisher.Mono;

import io.fiberjvm.internal.runtime.UserTarget;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.runtime.RuntimeContext;

/**
 * A job-backed process about to be started: options accumulate on it, {@link #start()} runs it.
 *
 * <p>Immutable: each option returns a new call, so a configured call can be started many times.
 * Resources default to the {@link Resources} annotation on the target class.
 */
public final class ProcessCall {

	private final RuntimeContext runtime;
	private final Object target;
	private final String name;
	private final ResourceSpec resources;
	private final Map<String, String> environment;

	ProcessCall(RuntimeContext runtime, Object target, String name, ResourceSpec resources) {
		this(runtime, target, name, resources, Map.of());
	}

	private ProcessCall(RuntimeContext runtime, Object target, String name, ResourceSpec resources, Map<String, String> environment) {
		this.runtime = runtime;
		this.target = target;
		this.name = name;
		this.resources = resources;
		this.environment = environment;
	}

	/**
	 * Sets an environment variable of the process. Names starting with {@code FIBER_} are Fiber's own
	 * (configuration and the run's secret) and refused.
	 */
	public ProcessCall environment(String variable, String value) {
		Objects.requireNonNull(variable, "variable");
		Objects.requireNonNull(value, "value");
		if (!variable.matches("[A-Za-z_][A-Za-z0-9_]*") || variable.startsWith("FIBER_")) {
			throw new IllegalArgumentException("'" + variable + "' is not an environment variable a process may be given "
					+ "(letters, digits and '_', not starting with a digit or with FIBER_)");
		}
		Map<String, String> copy = new LinkedHashMap<>(environment);
		copy.put(variable, value);
		return new ProcessCall(runtime, target, name, resources, Collections.unmodifiableMap(copy));
	}

	/** Names the process; the name appears in its job id, logs and errors. */
	public ProcessCall name(String name) {
		Objects.requireNonNull(name, "name");
		if (name.isBlank()) {
			throw new IllegalArgumentException("a process name must not be blank");
		}
		return new ProcessCall(runtime, target, name, resources, environment);
	}

	/** Cores for the process (fractions allowed). */
	public ProcessCall cpu(double cpu) {
		return new ProcessCall(runtime, target, name, resources.withCpu(cpu), environment);
	}

	/** Memory for the process, as a size ({@code 512Mi}, {@code 2Gi}). */
	public ProcessCall memory(String memory) {
		return new ProcessCall(runtime, target, name, resources.withMemory(memory), environment);
	}

	/** Whole GPUs for the process. */
	public ProcessCall gpu(int gpu) {
		return new ProcessCall(runtime, target, name, resources.withGpu(gpu), environment);
	}

	/** Where the process may run on a cluster, laid over the configured placement ({@link Placement}). */
	public ProcessCall placement(Placement placement) {
		return new ProcessCall(runtime, target, name, resources.withPlacement(Objects.requireNonNull(placement, "placement")), environment);
	}

	/** All resources at once. */
	public ProcessCall resources(ResourceSpec resources) {
		return new ProcessCall(runtime, target, name, Objects.requireNonNull(resources, "resources"), environment);
	}

	/** The resources the process will be started with. */
	public ResourceSpec resources() {
		return resources;
	}

	/**
	 * Starts the process when subscribed; emits it once the backend has created its job. Fails at
	 * once, before any job is made, when the target cannot be shipped.
	 */
	@SuppressWarnings("unchecked")
	public Mono<FiberProcess> start() {
		return Mono.defer(() -> {
			ProcessTarget shipped = target instanceof Class<?> type
					? UserTarget.ofClass((Class<? extends Runnable>) type)
					: UserTarget.ofObject((FiberRunnable) target, runtime.values());
			return runtime.start(shipped, name, resources, environment);
		});
	}
}
