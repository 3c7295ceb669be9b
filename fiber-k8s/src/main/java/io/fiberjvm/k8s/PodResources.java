package io.fiberjvm.k8s;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;

import io.fiberjvm.ResourceSpec;

/**
 * A container's requests and limits for a {@link ResourceSpec}: cpu in millicores and memory in bytes,
 * requested and limited alike (the scheduler places the pod where they fit, and the container cannot
 * take more), and GPUs as the {@code nvidia.com/gpu} extended resource, which is given as a limit only.
 */
public final class PodResources {

	private PodResources() {
	}

	public static ResourceRequirements of(ResourceSpec resources) {
		Objects.requireNonNull(resources, "resources");
		Map<String, Quantity> requests = new LinkedHashMap<>();
		if (resources.cpu() > 0) {
			requests.put("cpu", new Quantity(Math.round(resources.cpu() * 1000) + "m"));
		}
		if (resources.memoryBytes() > 0) {
			requests.put("memory", new Quantity(Long.toString(resources.memoryBytes())));
		}
		Map<String, Quantity> limits = new LinkedHashMap<>(requests);
		if (resources.gpu() > 0) {
			// An extended resource is asked for in limits; Kubernetes sets the request equal.
			limits.put("nvidia.com/gpu", new Quantity(Integer.toString(resources.gpu())));
		}
		return new ResourceRequirementsBuilder().withRequests(requests).withLimits(limits).build();
	}
}
