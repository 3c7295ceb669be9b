package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.it.RuntimeContract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The runtime contract on the Kubernetes backend, against a real kube-apiserver and etcd with the node
 * agent as kubelet: every worker is a pod whose JVM the agent runs here; a worker is lost by deleting
 * its pod, as {@code kubectl delete pod} does.
 */
@ExtendWith(TestCluster.Resolver.class)
class KubernetesRuntimeTest implements RuntimeContract {

	private final TestCluster cluster;
	private final String ns;
	private final List<Fiber> fibers = new CopyOnWriteArrayList<>();

	KubernetesRuntimeTest(TestCluster cluster) {
		this.cluster = cluster;
		this.ns = cluster.namespace(NodeAgent.SERVED_PREFIX + "runtime");
	}

	@Override
	public Fiber openFiber(java.util.Map<String, String> settings) {
		io.fiberjvm.FiberBuilder builder = Fiber.builder().backend("kubernetes")
				.set("kubeconfig", cluster.kubeconfig().toString())
				.set("namespace", ns)
				.set("image", "fiber-test:1")
				// The node agent runs pods on this machine.
				.set("host", "127.0.0.1");
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
	void noPodOfARunHoldsTheRunSecret() {
		Fiber fiber = openFiber();
		fiber.pool(2).open().map((io.fiberjvm.FiberFunction<Integer, Integer>) x -> x, reactor.core.publisher.Flux.range(0, 4))
				.blockLast(LONG);
		List<Pod> pods = cluster.client().pods().inNamespace(ns).list().getItems();
		assertThat(pods).hasSize(2);
		String secret = new String(java.util.Base64.getDecoder().decode(cluster.client().secrets().inNamespace(ns)
				.withName(RunSecret.name(fiber.runId())).get().getData().get(PodTemplate.SECRET_KEY)),
				java.nio.charset.StandardCharsets.UTF_8);
		assertThat(secret).hasSizeGreaterThan(20);
		for (Pod pod : pods) {
			assertThat(Serialization.asYaml(pod)).doesNotContain(secret);
			assertThat(pod.getMetadata().getLabels()).containsEntry("fiber-run", fiber.runId());
		}
	}

	@Test
	void closingTheRuntimeDeletesItsPods() {
		Fiber fiber = openFiber();
		fiber.pool(2).open().apply((io.fiberjvm.FiberFunction<Integer, Integer>) x -> x, 1).block(LONG);
		await().atMost(LONG).until(() -> cluster.client().pods().inNamespace(ns).list().getItems().size() == 2);
		fiber.close();
		await().atMost(Duration.ofSeconds(60)).until(() -> cluster.client().pods().inNamespace(ns).list().getItems().isEmpty()
				&& cluster.agent().runningPods() == 0);
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
