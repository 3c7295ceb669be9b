package io.fiberjvm;

import io.fiberjvm.internal.DataSize;

/**
 * What a job-backed process asks of the machine it runs on: cpu, memory and gpu.
 *
 * <p>Zero means "not specified". The local backend records these, hands out GPUs through
 * {@code CUDA_VISIBLE_DEVICES} and sizes the child JVM with {@code -XX:ActiveProcessorCount} and
 * {@code -XX:MaxRAM}; the Kubernetes backend turns them into requests and limits.
 *
 * @param cpu cores, fractions allowed (0.5)
 * @param memoryBytes bytes of memory
 * @param gpu whole GPUs
 */
public record ResourceSpec(double cpu, long memoryBytes, int gpu) {

	/** Nothing specified. */
	public static final ResourceSpec NONE = new ResourceSpec(0, 0, 0);

	public ResourceSpec {
		if (cpu < 0 || Double.isNaN(cpu) || Double.isInfinite(cpu)) {
			throw new IllegalArgumentException("cpu " + cpu + " must be 0 or more");
		}
		if (memoryBytes < 0) {
			throw new IllegalArgumentException("memory " + memoryBytes + " must be 0 or more");
		}
		if (gpu < 0) {
			throw new IllegalArgumentException("gpu " + gpu + " must be 0 or more");
		}
	}

	/** The resources declared by {@link Resources} on {@code type} or one of its superclasses; {@link #NONE} without one. */
	public static ResourceSpec of(Class<?> type) {
		for (Class<?> c = type; c != null; c = c.getSuperclass()) {
			Resources r = c.getAnnotation(Resources.class);
			if (r != null) {
				try {
					return new ResourceSpec(r.cpu(), r.memory().isEmpty() ? 0 : DataSize.parse(r.memory()), r.gpu());
				}
				catch (IllegalArgumentException e) {
					throw new IllegalArgumentException("@Resources on " + c.getName() + ": " + e.getMessage(), e);
				}
			}
		}
		return NONE;
	}

	/** These resources with {@code cpu} cores. */
	public ResourceSpec withCpu(double cpu) {
		return new ResourceSpec(cpu, memoryBytes, gpu);
	}

	/** These resources with {@code memory} (for example {@code 512Mi}). */
	public ResourceSpec withMemory(String memory) {
		return new ResourceSpec(cpu, DataSize.parse(memory), gpu);
	}

	/** These resources with {@code gpu} GPUs. */
	public ResourceSpec withGpu(int gpu) {
		return new ResourceSpec(cpu, memoryBytes, gpu);
	}

	@Override
	public String toString() {
		return "ResourceSpec[cpu=" + cpu + ", memory=" + DataSize.format(memoryBytes) + ", gpu=" + gpu + "]";
	}
}
