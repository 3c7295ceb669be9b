package io.fiberjvm.k8s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Toleration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.fiberjvm.Placement;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.JobSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A job pod's placement: the scheduling controls, and the pod template file it is made from. */
class PodPlacementTest {

	private static Pod pod(ResourceSpec resources) {
		JobSpec job = JobSpec.of("worker-abc-1", List.of("java", "-cp", "@/app/jib-classpath-file", "Main"))
				.withEnvironment(Map.of(JobSpec.SECRET_ENV, "s3cr3t", "FIBER_HOST", "10.0.0.5"))
				.withResources(resources)
				.withLabel("fiber-run", "abc");
		return PodTemplate.podFor(job, new PodTemplate.Settings("fiber", "app:1", "fiber-run-abc", null));
	}

	@Test
	void theSchedulingControlsReachThePod() {
		Placement placement = Placement.none().nodeSelector("gpu", "a100").nodeSelector("zone", "b")
				.toleration(Placement.Toleration.parse("dedicated=ml:NoSchedule")).toleration(Placement.Toleration.parse("spot"))
				.affinity("{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":"
						+ "[{\"matchExpressions\":[{\"key\":\"arch\",\"operator\":\"In\",\"values\":[\"amd64\"]}]}]}}}")
				.priorityClass("batch-low").label("team", "rl").label("fiber-run", "not-this").annotation("cost-center", "42")
				.serviceAccount("trainer");
		Pod pod = pod(new ResourceSpec(1, 1L << 30, 0, placement));
		assertThat(pod.getSpec().getNodeSelector()).containsExactlyInAnyOrderEntriesOf(Map.of("gpu", "a100", "zone", "b"));
		assertThat(pod.getSpec().getTolerations()).extracting(Toleration::getKey, Toleration::getOperator, Toleration::getValue, Toleration::getEffect)
				.containsExactly(org.assertj.core.groups.Tuple.tuple("dedicated", "Equal", "ml", "NoSchedule"),
						org.assertj.core.groups.Tuple.tuple("spot", "Exists", null, null));
		assertThat(pod.getSpec().getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
				.getNodeSelectorTerms().get(0).getMatchExpressions().get(0).getKey()).isEqualTo("arch");
		assertThat(pod.getSpec().getPriorityClassName()).isEqualTo("batch-low");
		assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("trainer");
		// Fiber's own labels win: the run's pods stay findable.
		assertThat(pod.getMetadata().getLabels()).containsEntry("team", "rl").containsEntry("fiber-run", "abc");
		assertThat(pod.getMetadata().getAnnotations()).containsEntry("cost-center", "42");
	}

	@Test
	void aPodTemplateGivesWhatFiberDoesNotSetAndFiberKeepsWhatItSets(@TempDir Path dir) throws Exception {
		Path template = dir.resolve("pod.yaml");
		Files.writeString(template, """
				apiVersion: v1
				kind: Pod
				metadata:
				  labels: {app: trainer}
				  annotations: {sidecar.example/inject: "true"}
				spec:
				  restartPolicy: Always
				  nodeSelector: {pool: cpu}
				  securityContext: {runAsNonRoot: true}
				  volumes: [{name: cache, emptyDir: {}}]
				  containers:
				  - name: log-shipper
				    image: shipper:2
				  - name: worker
				    image: ignored:0
				    args: ["--ignored"]
				    env: [{name: TZ, value: UTC}]
				    volumeMounts: [{name: cache, mountPath: /cache}]
				    resources: {limits: {memory: 2Gi}}
				""");
		Pod pod = pod(ResourceSpec.NONE.withPlacement(Placement.none().podTemplate(template.toString()).nodeSelector("zone", "b")));
		assertThat(pod.getMetadata().getName()).isEqualTo("worker-abc-1");
		assertThat(pod.getMetadata().getLabels()).containsEntry("app", "trainer").containsEntry("fiber-run", "abc");
		assertThat(pod.getMetadata().getAnnotations()).containsEntry("sidecar.example/inject", "true");
		assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
		assertThat(pod.getSpec().getNodeSelector()).containsExactlyInAnyOrderEntriesOf(Map.of("pool", "cpu", "zone", "b"));
		assertThat(pod.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
		assertThat(pod.getSpec().getContainers()).extracting(Container::getName).containsExactly("log-shipper", "worker");
		Container worker = pod.getSpec().getContainers().get(1);
		assertThat(worker.getImage()).isEqualTo("app:1");
		assertThat(worker.getCommand()).containsExactly("java", "-cp", "@/app/jib-classpath-file", "Main");
		assertThat(worker.getArgs()).isEmpty();
		assertThat(worker.getEnv()).extracting(e -> e.getName()).contains("TZ", "FIBER_HOST", JobSpec.SECRET_ENV);
		assertThat(worker.getVolumeMounts()).extracting(m -> m.getMountPath()).contains("/cache");
		// The job declared no memory: the template's limit stands.
		assertThat(worker.getResources().getLimits()).containsKey("memory");
		assertThat(pod.getSpec().getVolumes()).extracting(v -> v.getName()).contains("cache");
		// A job that declares its resources has its own.
		Pod sized = pod(new ResourceSpec(0, 512L << 20, 0, Placement.none().podTemplate(template.toString())));
		assertThat(sized.getSpec().getContainers().get(1).getResources().getLimits().get("memory").toString()).isEqualTo(Long.toString(512L << 20));
	}

	@Test
	void aTemplateOrAffinityThatCannotBeReadIsAnErrorNamingIt(@TempDir Path dir) throws Exception {
		assertThatThrownBy(() -> pod(ResourceSpec.NONE.withPlacement(Placement.none().podTemplate(dir.resolve("missing.yaml").toString()))))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing.yaml").hasMessageContaining("pod-template");
		assertThatThrownBy(() -> pod(ResourceSpec.NONE.withPlacement(Placement.none().affinity("{\"nodeAffinity\": 7}"))))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a Kubernetes Affinity");
		assertThatThrownBy(() -> Placement.Toleration.parse("gpu=yes:Sometimes")).hasMessageContaining("NoSchedule");
	}
}
