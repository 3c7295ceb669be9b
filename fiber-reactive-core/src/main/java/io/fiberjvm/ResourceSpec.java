package io.fiberjvm;

import io.fiberjvm.internal.DataSize;

/**
 * What a job-backed process asks of the machine it runs on: cpu, memory and gpu, and on a cluster which machines qualify.
 *
 * <p>Zero means "not specified". The local backend records these, hands out GPUs through
 * {@code CUDA_VISIBLE_DEVICES} and sizes the child JVM with {@code -XX:ActiveProcessorCount}, and with
 * {@code -XX:MaxRAM} and a heap of three quarters of it ({@code -XX:MaxRAMPercentage=75}, which {@code jvm-options}
 * can override); a JVM that runs out of that heap ends ({@code -XX:+ExitOnOutOfMemoryError}) and is reported as killed
 * for memory. The Kubernetes backend turns them into requests and limits, and gives a pod's JVM the same share of its
 * limit for its heap (half, under 1 GiB); a container over its limit is OOMKilled by the kernel, and reported so.
 *
 * @param cpu cores, fractions allowed (0.5)
 * @param memoryBytes bytes of memory
 * @param gpu whole GPUs
 * @param placement which machines of a cluster qualify, and how the job's pod is marked ({@link Placement})
 */
public record ResourceSpec(double cpu, long memoryBytes, int gpu, Placement placement) {

	/** The share of a JVM job's declared memory its heap may take, in percent, on every backend. */
	public static final int HEAP_PERCENT = 75;

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
		java.util.Objects.requireNonNull(placement, "placement");
	}

	/** Resources placed anywhere. */
	public ResourceSpec(double cpu, long memoryBytes, int gpu) {
		this(cpu, memoryBytes, gpu, Placement.none());
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
		return new ResourceSpec(cpu, memoryBytes, gpu, placement);
	}

	/** These resources with {@code memory} (for example {@code 512Mi}). */
	public ResourceSpec withMemory(String memory) {
		return new ResourceSpec(cpu, DataSize.parse(memory), gpu, placement);
	}

	/** These resources with {@code gpu} GPUs. */
	public ResourceSpec withGpu(int gpu) {
		return new ResourceSpec(cpu, memoryBytes, gpu, placement);
	}

	/** These resources placed by {@code placement}. */
	public ResourceSpec withPlacement(Placement placement) {
		return new ResourceSpec(cpu, memoryBytes, gpu, placement);
	}

	@Override
	public String toString() {
		return "ResourceSpec[cpu=" + cpu + ", memory=" + DataSize.format(memoryBytes) + ", gpu=" + gpu
				+ (placement.isNone() ? "" : ", placement=" + placement) + "]";
	}
}
