package io.fiberjvm.k8s;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import org.jspecify.annotations.Nullable;

import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.config.ConfigKeys;

/**
 * The pod for one job-backed process: the worker command in the parent's image (or the one set), the
 * job's resources as requests and limits, the parent's volume claims (or the ones named) mounted where
 * the parent mounts them, the parent's service account, labels naming the run and the parent, an owner
 * reference to the parent pod so deleting it removes its children, {@code restartPolicy: Never}, and
 * the run's secret only through a {@code secretKeyRef}, never as a value in the spec.
 */
final class PodTemplate {

	/** The key of the run's secret in its Kubernetes Secret. */
	static final String SECRET_KEY = "secret";
	/** Where a claim the parent does not mount is mounted in a child. */
	static final String CLAIM_ROOT = "/persistent/";
	static final String CONTAINER = "worker";

	private PodTemplate() {
	}

	/** A reference to {@code parent} as the owner of what this run makes, so the cluster removes it with the parent. */
	static OwnerReference ownerReference(Pod parent) {
		return new OwnerReferenceBuilder().withApiVersion("v1").withKind("Pod").withName(parent.getMetadata().getName())
				.withUid(parent.getMetadata().getUid()).build();
	}

	/**
	 * What every pod of a run shares.
	 *
	 * @param namespace where pods go
	 * @param image the image set by configuration, or null for the parent's
	 * @param secretName the Kubernetes Secret holding the run's secret under {@link #SECRET_KEY}
	 * @param parent the pod this runtime runs in, or null when it runs outside the cluster
	 */
	record Settings(String namespace, @Nullable String image, String secretName, @Nullable Pod parent) {
		Settings {
			Objects.requireNonNull(namespace, "namespace");
			Objects.requireNonNull(secretName, "secretName");
		}
	}

	static Pod podFor(JobSpec job, Settings settings) {
		Objects.requireNonNull(job, "job");
		Pod parent = settings.parent();
		Container parentContainer = programContainer(parent);
		// The job's own image, else the one configured, else the parent's.
		String image = !job.image().isBlank() ? job.image() : settings.image() != null && !settings.image().isBlank()
				? settings.image() : parentContainer != null ? parentContainer.getImage() : null;
		if (image == null || image.isBlank()) {
			throw new IllegalStateException("no image for job " + job.name() + ": set fiber.image, or run the parent in a pod "
					+ "whose image children can share");
		}
		Map<String, String> labels = new LinkedHashMap<>(job.labels());
		PodBuilder pod = new PodBuilder()
				.withNewMetadata()
				.withName(job.name())
				.withNamespace(settings.namespace())
				.endMetadata();
		if (parent != null) {
			labels.put("fiber-parent", parent.getMetadata().getName());
			pod.editMetadata().addToOwnerReferences(ownerReference(parent)).endMetadata();
		}
		pod.editMetadata().withLabels(labels).endMetadata();

		List<Volume> volumes = new ArrayList<>();
		List<VolumeMount> mounts = new ArrayList<>();
		for (Map.Entry<String, String> claim : claims(job, parent, parentContainer).entrySet()) {
			String volume = "claim-" + volumes.size();
			volumes.add(new VolumeBuilder().withName(volume).withNewPersistentVolumeClaim().withClaimName(claim.getKey())
					.endPersistentVolumeClaim().build());
			mounts.add(new VolumeMountBuilder().withName(volume).withMountPath(claim.getValue()).build());
		}

		// A job acts as its parent does: it may start jobs of its own.
		String serviceAccount = parent == null || parent.getSpec() == null ? null : parent.getSpec().getServiceAccountName();
		return PodPlacement.apply(pod.withNewSpec()
				.withServiceAccountName(serviceAccount)
				// What let the parent's image be pulled lets the children's be.
				.withImagePullSecrets(parent == null || parent.getSpec() == null ? List.of() : parent.getSpec().getImagePullSecrets())
				.withRestartPolicy("Never")
				.withVolumes(volumes)
				.addNewContainer()
				.withName(CONTAINER)
				.withImage(image)
				.withCommand(withHeapShare(job.command(), job.resources().memoryBytes()))
				.withEnv(environment(job, settings.secretName()))
				.withVolumeMounts(mounts)
				.withResources(PodResources.of(job.resources()))
				.endContainer()
				.endSpec()
				.build(), job.resources().placement());
	}

	/** Below this limit a pod's JVM gets half of it for its heap: the rest of the JVM needs a larger share of less. */
	static final long SMALL_LIMIT = 1L << 30;

	/**
	 * A java command given a heap of {@link ResourceSpec#HEAP_PERCENT} of the container's memory limit (half of a limit
	 * under 1 GiB), which the JVM reads from its cgroup; its own default is a quarter. The kernel kills a container over
	 * its limit, so the heap leaves room for metaspace, code, stacks and direct buffers. Options later in the command
	 * (the user's) still win.
	 */
	static List<String> withHeapShare(List<String> command, long memoryBytes) {
		String executable = command.isEmpty() ? "" : command.get(0);
		String name = executable.substring(executable.lastIndexOf('/') + 1);
		if (memoryBytes <= 0 || !name.equals("java")) {
			return command;
		}
		List<String> sized = new ArrayList<>(command.size() + 1);
		sized.add(executable);
		sized.add("-XX:MaxRAMPercentage=" + (memoryBytes < SMALL_LIMIT ? 50 : ResourceSpec.HEAP_PERCENT));
		sized.addAll(command.subList(1, command.size()));
		return sized;
	}

	/** The parent's program container: the one {@code fiber run} names, else the first (others may be sidecars). */
	private static @Nullable Container programContainer(@Nullable Pod parent) {
		if (parent == null || parent.getSpec() == null || parent.getSpec().getContainers().isEmpty()) {
			return null;
		}
		return parent.getSpec().getContainers().stream().filter(c -> MasterPod.CONTAINER.equals(c.getName())).findFirst()
				.orElse(parent.getSpec().getContainers().get(0));
	}

	/** Claim name → mount path: the ones the job names, else the parent's, mounted where the parent mounts them. */
	private static Map<String, String> claims(JobSpec job, @Nullable Pod parent, @Nullable Container parentContainer) {
		Map<String, String> parentMounts = new LinkedHashMap<>();
		if (parent != null && parent.getSpec() != null && parent.getSpec().getVolumes() != null) {
			for (Volume volume : parent.getSpec().getVolumes()) {
				if (volume.getPersistentVolumeClaim() == null) {
					continue;
				}
				String path = parentContainer == null || parentContainer.getVolumeMounts() == null ? null
						: parentContainer.getVolumeMounts().stream().filter(m -> m.getName().equals(volume.getName()))
								.map(VolumeMount::getMountPath).findFirst().orElse(null);
				parentMounts.put(volume.getPersistentVolumeClaim().getClaimName(),
						path != null ? path : CLAIM_ROOT + volume.getPersistentVolumeClaim().getClaimName());
			}
		}
		if (job.volumes().isEmpty()) {
			return parentMounts;
		}
		Map<String, String> named = new LinkedHashMap<>();
		for (String claim : job.volumes()) {
			named.put(claim, parentMounts.getOrDefault(claim, CLAIM_ROOT + claim));
		}
		return named;
	}

	/**
	 * The pod's own name as {@code FIBER_POD_NAME} (configuration key {@code pod-name}), from the
	 * downward API: a host name is cut at 63 characters and can be set apart from the pod's name.
	 */
	static EnvVar podNameVariable() {
		return new EnvVarBuilder().withName(ConfigKeys.POD_NAME.environmentName()).withNewValueFrom().withNewFieldRef()
				.withFieldPath("metadata.name").endFieldRef().endValueFrom().build();
	}

	private static List<EnvVar> environment(JobSpec job, String secretName) {
		List<EnvVar> env = new ArrayList<>();
		for (Map.Entry<String, String> variable : job.environment().entrySet()) {
			if (variable.getKey().equals(JobSpec.SECRET_ENV)) {
				continue;
			}
			env.add(new EnvVar(variable.getKey(), variable.getValue(), null));
		}
		env.add(podNameVariable());
		// The run's secret is a reference to a Secret: the pod spec never holds its value.
		env.add(new EnvVarBuilder().withName(JobSpec.SECRET_ENV).withNewValueFrom().withNewSecretKeyRef()
				.withName(secretName).withKey(SECRET_KEY).endSecretKeyRef().endValueFrom().build());
		return env;
	}
}
