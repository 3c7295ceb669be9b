package io.fiberjvm.k8s;

import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.JobSpec;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pod template against a real kube-apiserver (v1.20.2, with etcd, on loopback), which validates
 * pods the way a cluster does: the spec is accepted, stored as written, and keeps no secret value.
 */
@ExtendWith(TestCluster.Resolver.class)
class PodTemplateOnApiServerTest {

	private final KubernetesClient client;
	private final String ns;

	PodTemplateOnApiServerTest(TestCluster cluster) {
		this.client = cluster.client();
		// Not a namespace the node agent serves: the pod stays unscheduled, as written.
		this.ns = cluster.namespace("template");
	}

	@Test
	void theApiServerAcceptsTheRunSecretAndAChildPodThatStoresNoSecretValue() {
		Pod parent = client.pods().inNamespace(ns).resource(new PodBuilder()
				.withNewMetadata().withName("master-0").endMetadata()
				.withNewSpec().addNewContainer().withName("main").withImage("registry.example/app:1.2").endContainer().endSpec()
				.build()).create();
		JobSpec job = JobSpec.of("worker-abc-1", List.of("java", "io.fiberjvm.internal.runtime.WorkerMain", "process", "10.0.0.5:7000", "worker-abc-1"))
				.withEnvironment(Map.of(JobSpec.SECRET_ENV, "s3cr3t-value"))
				.withResources(new ResourceSpec(0.5, 256L * 1024 * 1024, 1))
				.withLabel("fiber-run", "abc");
		io.fabric8.kubernetes.api.model.Secret secret = client.secrets().inNamespace(ns)
				.resource(RunSecret.of(ns, "abc", "s3cr3t-value", parent)).create();
		assertThat(secret.getMetadata().getName()).isEqualTo(RunSecret.name("abc"));
		assertThat(secret.getMetadata().getOwnerReferences()).singleElement()
				.satisfies(owner -> assertThat(owner.getUid()).isEqualTo(parent.getMetadata().getUid()));
		assertThat(new String(java.util.Base64.getDecoder().decode(client.secrets().inNamespace(ns).withName(RunSecret.name("abc"))
				.get().getData().get(PodTemplate.SECRET_KEY)), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("s3cr3t-value");
		Pod created = client.pods().inNamespace(ns)
				.resource(PodTemplate.podFor(job, new PodTemplate.Settings(ns, null, RunSecret.name("abc"), parent))).create();
		Pod stored = client.pods().inNamespace(ns).withName("worker-abc-1").get();
		assertThat(stored.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
		assertThat(stored.getSpec().getRestartPolicy()).isEqualTo("Never");
		assertThat(stored.getMetadata().getOwnerReferences()).singleElement()
				.satisfies(owner -> assertThat(owner.getUid()).isEqualTo(parent.getMetadata().getUid()));
		assertThat(stored.getSpec().getContainers().get(0).getResources().getLimits()).containsKey("nvidia.com/gpu");
		assertThat(Serialization.asYaml(stored)).doesNotContain("s3cr3t-value");
		// No node serves this namespace: the pod waits for one, unscheduled.
		assertThat(PodStatuses.of(stored).phase()).isEqualTo(io.fiberjvm.backend.JobStatus.Phase.UNSCHEDULED);
	}
}
