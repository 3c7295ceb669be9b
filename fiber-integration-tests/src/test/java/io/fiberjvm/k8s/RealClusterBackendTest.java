package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.testkit.BackendContract;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.ResourceSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The backend contract on a real kubelet: every job a pod that containerd runs with runc from the image, scheduled by
 * the real scheduler onto the cluster's one node.
 */
@Tag("real-cluster")
@ExtendWith(RealCluster.Resolver.class)
class RealClusterBackendTest implements BackendContract {

	private final KubernetesClient client;
	private final String ns;
	private final List<Backend> backends = new CopyOnWriteArrayList<>();

	RealClusterBackendTest(RealCluster cluster) {
		this.client = cluster.client();
		this.ns = cluster.namespace("backend");
	}

	@Override
	public Backend openBackend() {
		KubernetesBackend backend = new KubernetesBackend(client, false,
				new KubernetesSettings(ns, RealCluster.IMAGE, List.of(), "", Duration.ofSeconds(2)));
		backends.add(backend);
		return backend;
	}

	@Test
	void aContainerOverItsMemoryLimitIsKilledForMemoryAndSaysItsLimit() {
		Backend backend = openBackend();
		// tail keeps every line it has read, and /dev/zero has no line end: it grows until the kernel kills it.
		Job job = backend.create(job("exec tail /dev/zero").withResources(new ResourceSpec(0, 64L * 1024 * 1024, 0))).block(LIMIT);
		JobStatus end = job.onTerminal().block(LIMIT);
		assertThat(end.phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(end.exitCode()).isEqualTo(137);
		assertThat(end.killedForMemory()).isTrue();
		assertThat(end.message()).isEqualTo("killed for memory (OOMKilled) at its limit of 64Mi");
	}

	@AfterEach
	void closeBackends() {
		backends.forEach(Backend::close);
		await().atMost(Duration.ofSeconds(60)).until(() -> client.pods().inNamespace(ns).list().getItems().isEmpty());
	}
}
