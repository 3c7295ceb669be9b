package io.fiberjvm.k8s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.worker.WorkerRoutes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pod template against a real kube-apiserver (v1.20.2, with etcd, on loopback), which validates
 * pods the way a cluster does: the spec is accepted, stored as written, and keeps no secret value.
 */
class PodTemplateOnApiServerTest {

	private static KubeAPIServer server;
	private static KubernetesClient client;

	@BeforeAll
	static void start() {
		Path binaries = Path.of(System.getProperty("user.home"), ".cache", "fiber-k8s");
		String dir = System.getenv().getOrDefault("K8S_TEST_CACHE", binaries.toString());
		if (!Files.isExecutable(Path.of(dir, "k8s", "1.20.2-linux-amd64", "kube-apiserver"))) {
			throw new IllegalStateException("no kube-apiserver under " + dir + ": run fiber-k8s/src/test/k8s/kube-apiserver.sh first "
					+ "(.ci/run does)");
		}
		server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
				.withTestDir(dir).withApiServerVersion("1.20.2").withOfflineMode(true)
				.withWaitForEtcdHealthCheckOnStartup(true).withStartupTimeout(120_000).build());
		server.start();
		client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.getKubeConfigYaml())).build();
		client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("fiber").endMetadata().build()).create();
	}

	@AfterAll
	static void stop() {
		if (client != null) {
			client.close();
		}
		if (server != null) {
			server.stop();
		}
	}

	@Test
	void theApiServerAcceptsTheRunSecretAndAChildPodThatStoresNoSecretValue() {
		Pod parent = client.pods().inNamespace("fiber").resource(new PodBuilder()
				.withNewMetadata().withName("master-0").endMetadata()
				.withNewSpec().addNewContainer().withName("main").withImage("registry.example/app:1.2").endContainer().endSpec()
				.build()).create();
		JobSpec job = JobSpec.of("worker-abc-1", List.of("java", "io.fiberjvm.worker.WorkerMain", "process", "10.0.0.5:7000", "worker-abc-1"))
				.withEnvironment(Map.of(WorkerRoutes.SECRET_ENV, "s3cr3t-value"))
				.withResources(new ResourceSpec(0.5, 256L * 1024 * 1024, 1))
				.withLabel("fiber-run", "abc");
		io.fabric8.kubernetes.api.model.Secret secret = client.secrets().inNamespace("fiber")
				.resource(RunSecret.of("fiber", "abc", "s3cr3t-value", parent)).create();
		assertThat(secret.getMetadata().getName()).isEqualTo(RunSecret.name("abc"));
		assertThat(secret.getMetadata().getOwnerReferences()).singleElement()
				.satisfies(owner -> assertThat(owner.getUid()).isEqualTo(parent.getMetadata().getUid()));
		assertThat(new String(java.util.Base64.getDecoder().decode(client.secrets().inNamespace("fiber").withName(RunSecret.name("abc"))
				.get().getData().get(PodTemplate.SECRET_KEY)), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("s3cr3t-value");
		Pod created = client.pods().inNamespace("fiber")
				.resource(PodTemplate.podFor(job, new PodTemplate.Settings("fiber", null, RunSecret.name("abc"), parent))).create();
		Pod stored = client.pods().inNamespace("fiber").withName("worker-abc-1").get();
		assertThat(stored.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
		assertThat(stored.getSpec().getRestartPolicy()).isEqualTo("Never");
		assertThat(stored.getMetadata().getOwnerReferences()).singleElement()
				.satisfies(owner -> assertThat(owner.getUid()).isEqualTo(parent.getMetadata().getUid()));
		assertThat(stored.getSpec().getContainers().get(0).getResources().getLimits()).containsKey("nvidia.com/gpu");
		assertThat(Serialization.asYaml(stored)).doesNotContain("s3cr3t-value");
		// No scheduler or kubelet runs here: the pod waits, and its status reads as PENDING.
		assertThat(PodStatuses.of(stored).phase()).isEqualTo(io.fiberjvm.backend.JobStatus.Phase.PENDING);
	}
}
