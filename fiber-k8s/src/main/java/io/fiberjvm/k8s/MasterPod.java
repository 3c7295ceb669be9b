package io.fiberjvm.k8s;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;

import io.fiberjvm.ResourceSpec;

/**
 * The pod a program starts from on a cluster ({@code fiber run}): its command in its image, under a
 * service account allowed to make job pods, with its claims mounted under {@value #CLAIM_ROOT}. Inside,
 * Fiber picks the Kubernetes backend by itself, and its jobs share this pod's image and claims and are
 * owned by it.
 */
public final class MasterPod {

	/** Labels a master pod. */
	public static final String ROLE_LABEL = "fiber-role";
	/** Where a claim is mounted: {@code /persistent/<claim>}. */
	public static final String CLAIM_ROOT = PodTemplate.CLAIM_ROOT;
	/** The container's name. */
	public static final String CONTAINER = "main";

	private MasterPod() {
	}

	/**
	 * The master pod.
	 *
	 * @param serviceAccount the account the program acts as (see {@code fiber-k8s/rbac.yaml}), or empty for the namespace's default
	 */
	public static Pod of(String name, String namespace, String image, List<String> command, ResourceSpec resources,
			List<String> claims, String serviceAccount) {
		Objects.requireNonNull(name, "name");
		Objects.requireNonNull(image, "image");
		if (Objects.requireNonNull(command, "command").isEmpty()) {
			throw new IllegalArgumentException("command must not be empty");
		}
		List<Volume> volumes = new ArrayList<>();
		List<VolumeMount> mounts = new ArrayList<>();
		for (String claim : claims) {
			String volume = "claim-" + volumes.size();
			volumes.add(new VolumeBuilder().withName(volume).withNewPersistentVolumeClaim().withClaimName(claim)
					.endPersistentVolumeClaim().build());
			mounts.add(new VolumeMountBuilder().withName(volume).withMountPath(CLAIM_ROOT + claim).build());
		}
		PodBuilder pod = new PodBuilder()
				.withNewMetadata().withName(name).withNamespace(namespace)
				.withLabels(Map.of(ROLE_LABEL, "master", "app.kubernetes.io/managed-by", "fiber"))
				.endMetadata()
				.withNewSpec()
				.withRestartPolicy("Never")
				.withVolumes(volumes)
				.addNewContainer()
				.withName(CONTAINER)
				.withImage(image)
				.withCommand(command)
				.withEnv(PodTemplate.podNameVariable())
				.withVolumeMounts(mounts)
				.withResources(PodResources.of(resources))
				.endContainer()
				.endSpec();
		if (!serviceAccount.isEmpty()) {
			pod.editSpec().withServiceAccountName(serviceAccount).endSpec();
		}
		return pod.build();
	}

	/**
	 * A pod that only holds {@code claim} mounted at {@code /persistent/<claim>}, for copying files in
	 * and out through exec; it sleeps until deleted, and at most an hour if whoever made it is gone.
	 */
	public static Pod claimHolder(String name, String namespace, String image, String claim) {
		return new PodBuilder()
				.withNewMetadata().withName(name).withNamespace(namespace)
				.withLabels(Map.of(ROLE_LABEL, "copy", "app.kubernetes.io/managed-by", "fiber"))
				.endMetadata()
				.withNewSpec()
				.withRestartPolicy("Never")
				.withTerminationGracePeriodSeconds(1L)
				.withActiveDeadlineSeconds(3600L)
				.addNewVolume().withName("claim").withNewPersistentVolumeClaim().withClaimName(claim).endPersistentVolumeClaim()
				.endVolume()
				.addNewContainer()
				.withName(CONTAINER)
				.withImage(image)
				.withCommand("sh", "-c", "exec sleep 3600")
				.addNewVolumeMount().withName("claim").withMountPath(CLAIM_ROOT + claim).endVolumeMount()
				.endContainer()
				.endSpec()
				.build();
	}
}
