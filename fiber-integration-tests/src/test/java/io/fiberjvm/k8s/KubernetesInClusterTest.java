package io.fiberjvm.k8s;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.fiberjvm.k8s.cli.FiberCli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A program started with {@code fiber run} inside the cluster (real API server, RBAC on, the
 * controller manager's garbage collector, the node agent as kubelet with service-account tokens
 * mounted as a kubelet mounts them): it finds the Kubernetes backend, its pod and namespace by itself,
 * its job pods share its image and service account and are owned by it; when it ends they go, and
 * when its pod is deleted the cluster's garbage collector removes them.
 */
@ExtendWith(TestCluster.Resolver.class)
class KubernetesInClusterTest {

	private static final Duration LONG = Duration.ofSeconds(180);

	private final TestCluster cluster;
	private final KubernetesClient client;
	private final String ns;

	KubernetesInClusterTest(TestCluster cluster) throws Exception {
		this.cluster = cluster;
		this.client = cluster.client();
		this.ns = cluster.servedNamespace("incluster");
		try (InputStream yaml = Files.newInputStream(Path.of("..", "fiber-k8s", "src", "main", "k8s", "rbac.yaml"))) {
			client.load(yaml).inNamespace(ns).create();
		}
	}

	@AfterEach
	void deletePods() {
		client.pods().inNamespace(ns).withGracePeriod(0).delete();
		await().atMost(LONG).until(() -> client.pods().inNamespace(ns).list().getItems().isEmpty());
	}

	private int fiberRun(StringWriter out, String name, String... programArgs) {
		List<String> args = new java.util.ArrayList<>(List.of("run", "--kubeconfig", cluster.kubeconfig().toString(), "-n", ns,
				"--image", "registry.example/app:5", "--name", name, "--attach", "--",
				Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", System.getProperty("java.class.path"),
				InClusterProgram.class.getName()));
		args.addAll(List.of(programArgs));
		return FiberCli.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(out, true));
	}

	@Test
	void aProgramRunWithFiberRunUsesWorkerPodsItOwns() {
		StringWriter out = new StringWriter();
		int code = fiberRun(out, "prog");
		assertThat(code).as(out.toString()).isZero();
		assertThat(out.toString()).contains("backend kubernetes", "sum of squares 328350");
		// The program closed its runtime: its job pods and its run's Secret are gone.
		await().atMost(LONG).until(() -> client.pods().inNamespace(ns).withLabel("fiber-parent", "prog").list().getItems().isEmpty());
		assertThat(client.secrets().inNamespace(ns).withLabel("fiber-run").list().getItems()).isEmpty();
	}

	@Test
	void deletingTheMastersPodRemovesItsJobsThroughTheGarbageCollector() {
		StringWriter out = new StringWriter();
		CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> fiberRun(out, "doomed", "linger"));
		await().atMost(LONG).until(() -> out.toString().contains("lingering"));
		List<Pod> jobs = client.pods().inNamespace(ns).withLabel("fiber-parent", "doomed").list().getItems();
		assertThat(jobs).hasSize(2).allSatisfy(job -> {
			assertThat(job.getSpec().getContainers().get(0).getImage()).isEqualTo("registry.example/app:5");
			assertThat(job.getSpec().getServiceAccountName()).isEqualTo("fiber");
			assertThat(job.getMetadata().getOwnerReferences()).singleElement()
					.satisfies(owner -> assertThat(owner.getName()).isEqualTo("doomed"));
		});
		// As when a node is lost: the pod goes at once, and its program gets no chance to clean up.
		client.pods().inNamespace(ns).withName("doomed").withGracePeriod(0).delete();
		await().atMost(LONG).until(() -> client.pods().inNamespace(ns).withLabel("fiber-parent", "doomed").list().getItems().isEmpty()
				&& client.secrets().inNamespace(ns).withLabel("fiber-run").list().getItems().isEmpty());
		assertThat(run.join()).isNotZero();
	}
}
