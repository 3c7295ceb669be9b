package io.fiberjvm;

import java.util.Objects;

import reactor.core.publisher.Mono;

import io.fiberjvm.worker.ShippedTarget;

/**
 * A job-backed process about to be started: options accumulate on it, {@link #start()} runs it.
 *
 * <p>Immutable: each option returns a new call, so a configured call can be started many times.
 * Resources default to the {@link Resources} annotation on the target class.
 */
public final class ProcessCall {

	private final Fiber fiber;
	private final Object target;
	private final String name;
	private final ResourceSpec resources;

	ProcessCall(Fiber fiber, Object target, String name, ResourceSpec resources) {
		this.fiber = fiber;
		this.target = target;
		this.name = name;
		this.resources = resources;
	}

	/** Names the process; the name appears in its job id, logs and errors. */
	public ProcessCall name(String name) {
		Objects.requireNonNull(name, "name");
		if (name.isBlank()) {
			throw new IllegalArgumentException("a process name must not be blank");
		}
		return new ProcessCall(fiber, target, name, resources);
	}

	/** Cores for the process (fractions allowed). */
	public ProcessCall cpu(double cpu) {
		return new ProcessCall(fiber, target, name, resources.withCpu(cpu));
	}

	/** Memory for the process, as a size ({@code 512Mi}, {@code 2Gi}). */
	public ProcessCall memory(String memory) {
		return new ProcessCall(fiber, target, name, resources.withMemory(memory));
	}

	/** Whole GPUs for the process. */
	public ProcessCall gpu(int gpu) {
		return new ProcessCall(fiber, target, name, resources.withGpu(gpu));
	}

	/** All resources at once. */
	public ProcessCall resources(ResourceSpec resources) {
		return new ProcessCall(fiber, target, name, Objects.requireNonNull(resources, "resources"));
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
			ShippedTarget shipped = target instanceof Class<?> type
					? ShippedTarget.ofClass((Class<? extends Runnable>) type)
					: fiber.resolvingHandles(() -> ShippedTarget.ofObject((FiberRunnable) target,
							fiber.config().get(io.fiberjvm.config.ConfigKeys.SERIAL_ALLOW)));
			return fiber.launch(name, shipped, resources);
		});
	}
}
