package io.fiberjvm.k8s;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.JobSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The pod spec of a job-backed process, field by field. */
class PodTemplateTest {

	private static final Pod PARENT = new PodBuilder()
			.withNewMetadata().withName("master-0").withUid("uid-123").endMetadata()
			.withNewSpec()
			.withServiceAccountName("fiber")
			.addNewImagePullSecret("registry-login")
			.addNewContainer().withName("sidecar").withImage("proxy:9").endContainer()
			.addNewContainer().withName("main").withImage("registry.example/app:1.2")
			.addNewVolumeMount().withName("data").withMountPath("/data").endVolumeMount()
			.addNewVolumeMount().withName("scratch").withMountPath("/scratch").endVolumeMount()
			.endContainer()
			.addNewVolume().withName("data").withNewPersistentVolumeClaim().withClaimName("shared-data").endPersistentVolumeClaim().endVolume()
			.addNewVolume().withName("scratch").withNewEmptyDir().endEmptyDir().endVolume()
			.endSpec()
			.build();

	private static JobSpec job() {
		return JobSpec.of("worker-abc-1", List.of("/opt/java/bin/java", "-cp", "/app/*", "io.fiberjvm.internal.runtime.WorkerMain", "process", "10.0.0.5:7000", "worker-abc-1"))
				.withEnvironment(Map.of(JobSpec.SECRET_ENV, "s3cr3t-value", "FIBER_KEEPALIVE_TIMEOUT", "5s"))
				.withResources(new ResourceSpec(1.5, 2L * 1024 * 1024 * 1024, 1))
				.withLabel("fiber-run", "abc")
				.withLabel("fiber-process", "worker-abc-1");
	}

	private static Container container(Pod pod) {
		return pod.getSpec().getContainers().get(0);
	}

	@Test
	void aChildPodRunsTheWorkerInTheParentsImageWithNoRestarts() {
		Pod pod = PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", null, "fiber-run-abc", PARENT));
		assertThat(pod.getMetadata().getName()).isEqualTo("worker-abc-1");
		assertThat(pod.getMetadata().getNamespace()).isEqualTo("fiber");
		assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
		assertThat(pod.getSpec().getContainers()).hasSize(1);
		assertThat(container(pod).getImage()).isEqualTo("registry.example/app:1.2");
		// The worker's command, its heap sized from its 2 GiB limit.
		List<String> command = new java.util.ArrayList<>(job().command());
		command.add(1, "-XX:MaxRAMPercentage=75");
		assertThat(container(pod).getCommand()).containsExactlyElementsOf(command);
	}

	@Test
	void resourcesAreRequestsAndLimitsAndGpusAreNvidiaGpus() {
		Pod pod = PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", null, "fiber-run-abc", PARENT));
		var resources = container(pod).getResources();
		assertThat(resources.getRequests()).containsEntry("cpu", new Quantity("1500m"))
				.containsEntry("memory", new Quantity("2147483648")).doesNotContainKey("nvidia.com/gpu");
		assertThat(resources.getLimits()).containsEntry("cpu", new Quantity("1500m"))
				.containsEntry("memory", new Quantity("2147483648")).containsEntry("nvidia.com/gpu", new Quantity("1"));
	}

	@Test
	void labelsNameTheRunAndTheParentAndTheParentOwnsTheChild() {
		Pod pod = PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", null, "fiber-run-abc", PARENT));
		assertThat(pod.getMetadata().getLabels()).containsEntry("fiber-run", "abc").containsEntry("fiber-process", "worker-abc-1")
				.containsEntry("fiber-parent", "master-0");
		assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> {
			assertThat(owner.getKind()).isEqualTo("Pod");
			assertThat(owner.getApiVersion()).isEqualTo("v1");
			assertThat(owner.getName()).isEqualTo("master-0");
			assertThat(owner.getUid()).isEqualTo("uid-123");
			// Not blocking: that needs rights on pods/finalizers under OwnerReferencesPermissionEnforcement.
			assertThat(owner.getBlockOwnerDeletion()).isNull();
		});
	}

	@Test
	void aChildActsAsItsParentAndKnowsItsOwnName() {
		Pod pod = PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", null, "fiber-run-abc", PARENT));
		// The program's container, not the sidecar listed first, lends its image.
		assertThat(container(pod).getImage()).isEqualTo("registry.example/app:1.2");
		assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("fiber");
		assertThat(pod.getSpec().getImagePullSecrets()).singleElement()
				.satisfies(secret -> assertThat(secret.getName()).isEqualTo("registry-login"));
		assertThat(container(pod).getEnv()).anySatisfy(e -> {
			assertThat(e.getName()).isEqualTo("FIBER_POD_NAME");
			assertThat(e.getValueFrom().getFieldRef().getFieldPath()).isEqualTo("metadata.name");
		});
	}

	@Test
	void theSecretIsAReferenceAndNeverAValue() {
		Pod pod = PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", null, "fiber-run-abc", PARENT));
		var secret = container(pod).getEnv().stream().filter(e -> e.getName().equals(JobSpec.SECRET_ENV)).toList();
		assertThat(secret).singleElement().satisfies(env -> {
			assertThat(env.getValue()).isNull();
			assertThat(env.getValueFrom().getSecretKeyRef().getName()).isEqualTo("fiber-run-abc");
			assertThat(env.getValueFrom().getSecretKeyRef().getKey()).isEqualTo(PodTemplate.SECRET_KEY);
		});
		assertThat(io.fabric8.kubernetes.client.utils.Serialization.asYaml(pod)).doesNotContain("s3cr3t-value");
		assertThat(container(pod).getEnv()).anySatisfy(e -> {
			assertThat(e.getName()).isEqualTo("FIBER_KEEPALIVE_TIMEOUT");
			assertThat(e.getValue()).isEqualTo("5s");
		});
	}

	@Test
	void theParentsClaimsAreMountedWhereTheParentMountsThem() {
		Pod pod = PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", null, "fiber-run-abc", PARENT));
		assertThat(pod.getSpec().getVolumes()).singleElement().satisfies(volume ->
				assertThat(volume.getPersistentVolumeClaim().getClaimName()).isEqualTo("shared-data"));
		assertThat(container(pod).getVolumeMounts()).singleElement().satisfies(mount -> {
			assertThat(mount.getMountPath()).isEqualTo("/data");
			assertThat(mount.getName()).isEqualTo(pod.getSpec().getVolumes().get(0).getName());
		});
	}

	@Test
	void namedClaimsReplaceTheParentsAndAnImageSetByConfigurationWins() {
		Pod pod = PodTemplate.podFor(job().withVolume("results").withVolume("shared-data"),
				new PodTemplate.Settings("fiber", "registry.example/other:2", "fiber-run-abc", PARENT));
		assertThat(container(pod).getImage()).isEqualTo("registry.example/other:2");
		assertThat(pod.getSpec().getVolumes()).extracting(v -> v.getPersistentVolumeClaim().getClaimName())
				.containsExactly("results", "shared-data");
		assertThat(container(pod).getVolumeMounts()).extracting(m -> m.getMountPath())
				.containsExactly(PodTemplate.CLAIM_ROOT + "results", "/data");
	}

	@Test
	void withoutAParentOrAnImageThereIsAClearError() {
		assertThatThrownBy(() -> PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", null, "fiber-run-abc", null)))
				.isInstanceOf(IllegalStateException.class).hasMessageContaining("no image").hasMessageContaining("fiber.image");
		Pod pod = PodTemplate.podFor(job(), new PodTemplate.Settings("fiber", "img:1", "fiber-run-abc", null));
		assertThat(pod.getMetadata().getOwnerReferences()).isEmpty();
		assertThat(pod.getMetadata().getLabels()).doesNotContainKey("fiber-parent");
	}

	@Test
	void aJavaJobsHeapIsThreeQuartersOfItsMemoryLimitUnlessItsOwnOptionsSayOtherwise() {
		assertThat(PodTemplate.withHeapShare(java.util.List.of("java", "-Xss1m", "-cp", "/app/x.jar", "Main"), 1L << 30))
				.containsExactly("java", "-XX:MaxRAMPercentage=75", "-Xss1m", "-cp", "/app/x.jar", "Main");
		assertThat(PodTemplate.withHeapShare(java.util.List.of("/opt/jre/bin/java", "Main"), 1L << 30))
				.containsExactly("/opt/jre/bin/java", "-XX:MaxRAMPercentage=75", "Main");
		// Under 1 GiB, half: the rest of the JVM needs a larger share of less.
		assertThat(PodTemplate.withHeapShare(java.util.List.of("java", "Main"), 512L << 20))
				.containsExactly("java", "-XX:MaxRAMPercentage=50", "Main");
		// No limit, or not a JVM: as given.
		assertThat(PodTemplate.withHeapShare(java.util.List.of("java", "Main"), 0)).containsExactly("java", "Main");
		assertThat(PodTemplate.withHeapShare(java.util.List.of("sh", "-c", "exit 0"), 1L << 30)).containsExactly("sh", "-c", "exit 0");
	}
}
