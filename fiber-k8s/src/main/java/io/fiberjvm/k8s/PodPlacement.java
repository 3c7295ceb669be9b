package io.fiberjvm.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.jspecify.annotations.Nullable;

import io.fiberjvm.Placement;

/**
 * A job's pod with its {@link Placement} applied: made from the pod template file, if one is named, then given the
 * node selector, tolerations, affinity, priority class, labels, annotations and service account.
 *
 * <p>From a template, Fiber's pod keeps what it sets (name, namespace, owner, its labels, image, command, run secret,
 * declared resources, restart policy {@code Never}) and takes the rest from the template: its other containers
 * (sidecars), volumes and mounts, environment, security context, and the worker container's resources when the job
 * declares none. The worker is the template's container named {@value PodTemplate#CONTAINER}, else its first.
 */
final class PodPlacement {

	private PodPlacement() {
	}

	/** {@code pod} placed by {@code placement}; a template or affinity that cannot be read is an error naming it. */
	static Pod apply(Pod pod, Placement placement) {
		if (placement.isNone()) {
			return pod;
		}
		Pod base = placement.podTemplate().isEmpty() ? pod : onTemplate(read(placement.podTemplate()), pod);
		PodSpec spec = base.getSpec();
		PodSpecBuilder placed = new PodSpecBuilder(spec)
				.withNodeSelector(merged(spec.getNodeSelector(), placement.nodeSelector()))
				.withTolerations(concat(spec.getTolerations(), placement.tolerations().stream().map(PodPlacement::toleration).toList()));
		if (!placement.affinity().isEmpty()) {
			placed.withAffinity(affinity(placement.affinity()));
		}
		if (!placement.priorityClass().isEmpty()) {
			placed.withPriorityClassName(placement.priorityClass());
		}
		if (!placement.serviceAccount().isEmpty()) {
			placed.withServiceAccountName(placement.serviceAccount());
		}
		// Fiber's own labels (run, process, backend, parent) win over the placement's.
		Map<String, String> labels = merged(placement.labels(), pod.getMetadata().getLabels());
		return new PodBuilder(base)
				.withMetadata(new ObjectMetaBuilder(base.getMetadata()).withLabels(merged(base.getMetadata().getLabels(), labels))
						.withAnnotations(merged(base.getMetadata().getAnnotations(), placement.annotations())).build())
				.withSpec(placed.build())
				.build();
	}

	/** Fiber's {@code pod} laid over {@code template}, as the class comment says. */
	static Pod onTemplate(Pod template, Pod pod) {
		PodSpec own = pod.getSpec();
		PodSpec spec = template.getSpec() != null ? template.getSpec() : new PodSpec();
		Container worker = own.getContainers().get(0);
		List<Container> containers = new ArrayList<>(spec.getContainers() == null ? List.of() : spec.getContainers());
		int at = 0;
		for (int i = 0; i < containers.size(); i++) {
			if (PodTemplate.CONTAINER.equals(containers.get(i).getName())) {
				at = i;
			}
		}
		Container base = containers.isEmpty() ? new Container() : containers.remove(at);
		boolean declared = worker.getResources() != null && !worker.getResources().getLimits().isEmpty();
		containers.add(Math.min(at, containers.size()), new ContainerBuilder(base)
				.withName(worker.getName())
				.withImage(worker.getImage())
				.withCommand(worker.getCommand())
				// The command is whole: a template's args would run after it.
				.withArgs(List.of())
				.withEnv(concat(base.getEnv(), worker.getEnv()))
				.withVolumeMounts(concat(base.getVolumeMounts(), worker.getVolumeMounts()))
				.withResources(declared || base.getResources() == null ? worker.getResources() : base.getResources())
				.build());
		PodSpecBuilder merged = new PodSpecBuilder(spec)
				.withRestartPolicy("Never")
				.withContainers(containers)
				.withVolumes(concat(spec.getVolumes(), own.getVolumes()))
				.withImagePullSecrets(concat(spec.getImagePullSecrets(), own.getImagePullSecrets()));
		if (spec.getServiceAccountName() == null) {
			merged.withServiceAccountName(own.getServiceAccountName());
		}
		Map<String, String> annotations = template.getMetadata() == null ? Map.of() : template.getMetadata().getAnnotations();
		Map<String, String> labels = template.getMetadata() == null ? Map.of() : template.getMetadata().getLabels();
		return new PodBuilder(pod)
				.withMetadata(new ObjectMetaBuilder(pod.getMetadata()).withLabels(merged(labels, pod.getMetadata().getLabels()))
						.withAnnotations(merged(annotations, pod.getMetadata().getAnnotations())).build())
				.withSpec(merged.build())
				.build();
	}

	private static Pod read(String file) {
		try (InputStream in = Files.newInputStream(Path.of(file))) {
			Pod template = Serialization.unmarshal(in, Pod.class);
			if (template == null) {
				throw new IllegalArgumentException("it is empty");
			}
			return template;
		}
		catch (IOException | RuntimeException e) {
			throw new IllegalArgumentException("the pod template " + file + " (pod-template) cannot be read as a Pod in YAML or JSON: "
					+ e.getMessage(), e);
		}
	}

	private static Affinity affinity(String text) {
		try {
			return Serialization.unmarshal(text, Affinity.class);
		}
		catch (RuntimeException e) {
			throw new IllegalArgumentException("the affinity '" + text + "' (affinity) is not a Kubernetes Affinity in JSON or YAML: "
					+ e.getMessage(), e);
		}
	}

	private static Toleration toleration(Placement.Toleration toleration) {
		return new TolerationBuilder().withKey(toleration.key().isEmpty() ? null : toleration.key())
				.withOperator(toleration.anyValue() ? "Exists" : "Equal")
				.withValue(toleration.anyValue() ? null : toleration.value())
				.withEffect(toleration.effect().isEmpty() ? null : toleration.effect())
				.build();
	}

	private static Map<String, String> merged(@Nullable Map<String, String> under, @Nullable Map<String, String> over) {
		Map<String, String> both = new LinkedHashMap<>(under == null ? Map.of() : under);
		if (over != null) {
			both.putAll(over);
		}
		return both;
	}

	private static <T> List<T> concat(@Nullable List<T> first, @Nullable List<T> second) {
		List<T> both = new ArrayList<>(first == null ? List.of() : first);
		if (second != null) {
			both.addAll(second);
		}
		return both;
	}
}
