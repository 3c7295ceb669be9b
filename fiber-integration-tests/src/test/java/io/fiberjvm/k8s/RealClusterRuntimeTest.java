package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.it.RuntimeContract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The runtime contract on a real kubelet: this JVM is a program outside the cluster (as on a laptop, with
 * {@code backend=kubernetes}), every worker a pod that containerd runs from the image of this JVM's classpath, with the
 * image's own java and classpath (the defaults from outside a cluster), every connection over TLS (on by default when
 * jobs run on other machines). A worker is lost by deleting its pod.
 */
@Tag("real-cluster")
@ExtendWith(RealCluster.Resolver.class)
class RealClusterRuntimeTest implements RuntimeContract {

	private final RealCluster cluster;
	private final String ns;
	private final List<Fiber> fibers = new CopyOnWriteArrayList<>();

	RealClusterRuntimeTest(RealCluster cluster) {
		this.cluster = cluster;
		this.ns = cluster.namespace("runtime");
	}

	@Override
	public Fiber openFiber(Map<String, String> settings) {
		io.fiberjvm.FiberBuilder builder = Fiber.builder().backend("kubernetes")
				.set("kubeconfig", cluster.kubeconfig().toString())
				.set("namespace", ns)
				.set("image", RealCluster.IMAGE)
				// Pods reach this machine through the cluster network's link to it.
				.set("host", RealCluster.HOST_ADDRESS);
		Fiber fiber = RuntimeContract.with(builder, settings).open();
		fibers.add(fiber);
		return fiber;
	}

	@Override
	public void loseWorker(Fiber fiber, FiberProcess worker) {
		cluster.client().pods().inNamespace(ns).withName(worker.jobId()).delete();
	}

	@AfterEach
	void close() {
		fibers.forEach(Fiber::close);
		await().atMost(Duration.ofSeconds(60)).until(() -> cluster.client().pods().inNamespace(ns).list().getItems().isEmpty());
	}

	@Test
	void workersRunInContainersOfTheImageWithItsJavaAndClasspathNotThisMachines() {
		Fiber fiber = openFiber();
		FiberFunction<Integer, String> where = x -> System.getProperty("java.home") + "|" + System.getProperty("java.class.path");
		String seen = fiber.pool(1).open().apply(where, 0).block(LONG);
		String[] parts = seen.split("\\|");
		assertThat(parts[0]).as("java.home in the pod").startsWith("/usr/lib/jvm/");
		assertThat(parts[1]).as("classpath in the pod").startsWith("/app/").doesNotContain(System.getProperty("user.home"));
		List<Pod> pods = cluster.client().pods().inNamespace(ns).list().getItems();
		assertThat(pods).singleElement().satisfies(pod -> {
			assertThat(pod.getSpec().getNodeName()).isEqualTo("k8sreal");
			assertThat(pod.getSpec().getContainers().get(0).getCommand()).startsWith("java").contains("@/app/jib-classpath-file");
			assertThat(pod.getStatus().getContainerStatuses().get(0).getContainerID()).startsWith("containerd://");
			// Its connections to this machine leave it: they use TLS, and the worker is told so.
			assertThat(pod.getSpec().getContainers().get(0).getEnv()).anySatisfy(env -> {
				assertThat(env.getName()).isEqualTo("FIBER_TLS");
				assertThat(env.getValue()).isEqualTo("on");
			});
		});
	}

	@Test
	void aPoolMapsOnSeveralPodsAtOnce() {
		Fiber fiber = openFiber();
		List<Integer> squares = fiber.pool(3).open().map((FiberFunction<Integer, Integer>) x -> x * x, Flux.range(0, 100))
				.collectList().block(LONG);
		assertThat(squares).hasSize(100).startsWith(0, 1, 4, 9);
		assertThat(cluster.client().pods().inNamespace(ns).list().getItems()).hasSize(3)
				.allSatisfy(pod -> assertThat(pod.getStatus().getPodIP()).startsWith("10.244."));
	}
	@Test
	void noPodOfARunHoldsTheRunSecret() {
		Fiber fiber = openFiber();
		fiber.pool(2).open().map((FiberFunction<Integer, Integer>) x -> x, Flux.range(0, 4)).blockLast(LONG);
		List<Pod> pods = cluster.client().pods().inNamespace(ns).list().getItems();
		assertThat(pods).hasSize(2);
		String secret = new String(java.util.Base64.getDecoder().decode(cluster.client().secrets().inNamespace(ns)
				.withName(RunSecret.name(fiber.runId())).get().getData().get(PodTemplate.SECRET_KEY)),
				java.nio.charset.StandardCharsets.UTF_8);
		assertThat(secret).hasSizeGreaterThan(20);
		for (Pod pod : pods) {
			assertThat(io.fabric8.kubernetes.client.utils.Serialization.asYaml(pod)).doesNotContain(secret);
			assertThat(pod.getMetadata().getLabels()).containsEntry("fiber-run", fiber.runId());
		}
	}

	@Test
	void closingTheRuntimeDeletesItsPodsAndItsSecret() {
		Fiber fiber = openFiber();
		fiber.pool(2).open().apply((FiberFunction<Integer, Integer>) x -> x, 1).block(LONG);
		await().atMost(LONG).until(() -> cluster.client().pods().inNamespace(ns).list().getItems().size() == 2);
		fiber.close();
		await().atMost(Duration.ofSeconds(60)).until(() -> cluster.client().pods().inNamespace(ns).list().getItems().isEmpty());
		assertThat(cluster.client().secrets().inNamespace(ns).withName(RunSecret.name(fiber.runId())).get()).isNull();
	}

	@Test
	void fiberPsListsTheRunsPoolAndItsWorkersWithThePodHostingThemUntilTheRunCloses() {
		Fiber fiber = openFiber();
		io.fiberjvm.pool.FiberPool pool = fiber.pool(2).name("crunch").workersPerProcess(2).open();
		await().atMost(LONG).until(() -> pool.stats().workers() == 2);
		String pod = pool.workers().get(0).jobId();
		await().atMost(LONG).untilAsserted(() -> {
			java.io.StringWriter out = new java.io.StringWriter();
			int code = io.fiberjvm.k8s.cli.FiberCli.execute(new String[] {"ps", "--kubeconfig", cluster.kubeconfig().toString(),
					"-n", ns}, new java.io.PrintWriter(out, true), new java.io.PrintWriter(out, true));
			assertThat(code).as(out.toString()).isZero();
			List<String> lines = out.toString().lines().toList();
			assertThat(lines).anyMatch(l -> l.startsWith(pod) && l.contains(" job ") && l.contains("running"));
			assertThat(lines).anyMatch(l -> l.startsWith("crunch ") && l.contains(" pool ") && l.contains("2 of 2 working"));
			assertThat(lines).filteredOn(l -> l.contains(" worker ") && l.contains(" " + pod + " ") && l.contains("working"))
					.hasSize(2);
		});
		assertThat(cluster.client().configMaps().inNamespace(ns).withName("fiber-status-" + fiber.runId()).get()).isNotNull();
		fiber.close();
		assertThat(cluster.client().configMaps().inNamespace(ns).withName("fiber-status-" + fiber.runId()).get()).isNull();
	}
}
