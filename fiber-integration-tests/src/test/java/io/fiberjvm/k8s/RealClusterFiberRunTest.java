package io.fiberjvm.k8s;

import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.fiberjvm.k8s.cli.FiberCli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code fiber run --attach} on a real kubelet: the program's master is itself a pod, which finds the cluster's API
 * server through its Service and its service account's token as every in-cluster client does, and starts worker pods
 * of its own image, owned by it, with the same java and classpath as itself.
 */
@Tag("real-cluster")
@ExtendWith(RealCluster.Resolver.class)
class RealClusterFiberRunTest {

	private static final Duration LONG = Duration.ofSeconds(180);

	private final RealCluster cluster;
	private final KubernetesClient client;
	private final String ns;

	RealClusterFiberRunTest(RealCluster cluster) throws Exception {
		this.cluster = cluster;
		this.client = cluster.client();
		this.ns = cluster.namespace("fiber-run");
		try (InputStream yaml = Files.newInputStream(Path.of("..", "fiber-k8s", "src", "main", "k8s", "rbac.yaml"))) {
			client.load(yaml).inNamespace(ns).create();
		}
	}

	@AfterEach
	void deletePods() {
		client.pods().inNamespace(ns).withGracePeriod(0).delete();
		await().atMost(LONG).until(() -> client.pods().inNamespace(ns).list().getItems().isEmpty());
	}

	private int fiberRun(StringWriter out, String image, String name, String mainClass, String... programArgs) {
		List<String> args = new ArrayList<>(List.of("run", "--kubeconfig", cluster.kubeconfig().toString(), "-n", ns,
				"--image", image, "--name", name, "--attach", "--", "java", "-cp", "@/app/jib-classpath-file", mainClass));
		args.addAll(List.of(programArgs));
		return FiberCli.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(out, true));
	}

	@Test
	void aMasterPodStartsWorkerPodsOfItsImageThatItOwns() {
		StringWriter out = new StringWriter();
		List<Pod> workers = new java.util.concurrent.CopyOnWriteArrayList<>();
		// The workers are seen while the program runs: it deletes them as it closes.
		int code;
		try (Watch watch = client.pods().inNamespace(ns).withLabel("fiber-parent", "prog").watch(new Watcher<Pod>() {
			@Override
			public void eventReceived(Action action, Pod pod) {
				if (action == Action.ADDED) {
					workers.add(pod);
				}
			}

			@Override
			public void onClose(WatcherException cause) {
			}
		})) {
			code = fiberRun(out, RealCluster.IMAGE, "prog", InClusterProgram.class.getName());
		}
		assertThat(code).as(out.toString()).isZero();
		assertThat(out.toString()).contains("backend kubernetes", "sum of squares 328350");
		assertThat(workers).isNotEmpty().allSatisfy(worker -> {
			assertThat(worker.getSpec().getContainers().get(0).getImage()).isEqualTo(RealCluster.IMAGE);
			// The master runs in a pod of the same image: its workers run its own java and classpath, the image's.
			List<String> command = worker.getSpec().getContainers().get(0).getCommand();
			assertThat(command.get(0)).startsWith("/usr/lib/jvm/");
			assertThat(command.get(command.indexOf("-cp") + 1)).startsWith("/app/");
			assertThat(worker.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> assertThat(owner.getName()).isEqualTo("prog"));
		});
		await().atMost(LONG).until(() -> client.pods().inNamespace(ns).withLabel("fiber-parent", "prog").list().getItems().isEmpty());
	}

	@Test
	void theExamplesImageTheBuildMakesRunsTheDemoOnTheCluster() {
		Path tarball = Path.of("..", "fiber-examples", "target", "fiber-examples-image.tar");
		assertThat(tarball).as("the examples' image, made by the build's package phase (jib:buildTar)").isRegularFile();
		cluster.importImage(tarball);
		StringWriter out = new StringWriter();
		int code = fiberRun(out, System.getProperty("examples.image"), "demo",
				"io.fiberjvm.examples.Demo", "2", "200000");
		assertThat(code).as(out.toString()).isZero();
		assertThat(out.toString()).contains("2 job-backed processes on the kubernetes backend", "all 2 processes done", "pi ~ 3.1");
	}
	@Test
	void deletingTheMastersPodRemovesItsJobsThroughTheGarbageCollector() {
		StringWriter out = new StringWriter();
		java.util.concurrent.CompletableFuture<Integer> run = java.util.concurrent.CompletableFuture.supplyAsync(
				() -> fiberRun(out, RealCluster.IMAGE, "doomed", InClusterProgram.class.getName(), "linger"));
		await().atMost(LONG).until(() -> out.toString().contains("lingering"));
		List<Pod> jobs = client.pods().inNamespace(ns).withLabel("fiber-parent", "doomed").list().getItems();
		assertThat(jobs).hasSize(2).allSatisfy(job -> {
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
