package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.Placement;
import io.fiberjvm.ProcessFailedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Scheduling on the real scheduler: a job it cannot place waits, unscheduled, without its wait counting against
 * start-timeout, and runs once the cluster changes so it can; one never placed fails with the scheduler's reason; a
 * pool starts with the workers that fit and maps with them.
 */
@Tag("real-cluster")
@ExtendWith(RealCluster.Resolver.class)
class RealClusterSchedulingTest {

	private static final Duration LONG = Duration.ofSeconds(180);
	private static final String NODE = "k8sreal";
	private static final String LABEL = "fiber-test/pool";
	private static final String TAINT = "fiber-test/dedicated";

	private final RealCluster cluster;
	private final KubernetesClient client;
	private final String ns;
	private final List<Fiber> fibers = new CopyOnWriteArrayList<>();

	RealClusterSchedulingTest(RealCluster cluster) {
		this.cluster = cluster;
		this.client = cluster.client();
		this.ns = cluster.namespace("scheduling");
	}

	private Fiber open(Map<String, String> settings) {
		io.fiberjvm.FiberBuilder builder = Fiber.builder().backend("kubernetes").set("kubeconfig", cluster.kubeconfig().toString())
				.set("namespace", ns).set("image", RealCluster.IMAGE).set("host", RealCluster.HOST_ADDRESS);
		for (var setting : settings.entrySet()) {
			builder = builder.set(setting.getKey(), setting.getValue());
		}
		Fiber fiber = builder.open();
		fibers.add(fiber);
		return fiber;
	}

	/**
	 * Edits the node, again when the edit meets a newer version of it: the kubelet updates its node's status
	 * whenever it pleases, which makes an edit of the version read a moment before a conflict.
	 */
	private void editNode(java.util.function.UnaryOperator<Node> change) {
		for (int attempt = 1;; attempt++) {
			try {
				client.nodes().withName(NODE).edit(change);
				return;
			}
			catch (KubernetesClientException e) {
				if (e.getCode() != java.net.HttpURLConnection.HTTP_CONFLICT || attempt == 10) {
					throw e;
				}
			}
		}
	}

	@AfterEach
	void close() {
		fibers.forEach(Fiber::close);
		editNode(node -> {
			node.getMetadata().getLabels().remove(LABEL);
			return node;
		});
		await().atMost(Duration.ofSeconds(60)).until(() -> client.pods().inNamespace(ns).list().getItems().isEmpty());
	}

	@Test
	void aJobTheSchedulerCannotPlaceWaitsPastItsStartTimeoutAndRunsOnceANodeQualifies() {
		Fiber fiber = open(Map.of("start-timeout", "15s", "node-selector", LABEL + "=gpu"));
		FiberProcess process = fiber.process(() -> System.out.println("placed")).name("picky").start().block(LONG);
		AtomicReference<Throwable> failed = new AtomicReference<>();
		process.onRunning().subscribe(null, failed::set);
		Pod pod = client.pods().inNamespace(ns).withName(process.jobId()).get();
		assertThat(pod.getSpec().getNodeSelector()).containsEntry(LABEL, "gpu");
		await().atMost(LONG).untilAsserted(() -> assertThat(client.pods().inNamespace(ns).withName(process.jobId()).get().getStatus()
				.getConditions()).anySatisfy(c -> assertThat(c.getReason()).isEqualTo("Unschedulable")));
		// Longer than its start timeout unplaced, and it has not failed.
		await().during(Duration.ofSeconds(20)).atMost(Duration.ofSeconds(40)).until(() -> failed.get() == null);
		editNode(node -> {
			node.getMetadata().getLabels().put(LABEL, "gpu");
			return node;
		});
		process.join().block(LONG);
		assertThat(process.logs().collectList().block(LONG)).contains("placed");
	}

	@Test
	void tolerationsAffinityAndPriorityClassReachTheRealScheduler() {
		client.resource(new io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder().withNewMetadata()
				.withName("fiber-test-urgent").endMetadata().withValue(1000).build()).createOr(existing -> existing.update());
		editNode(node -> {
			node.getSpec().getTaints().add(new io.fabric8.kubernetes.api.model.TaintBuilder().withKey(TAINT).withValue("ml")
					.withEffect("NoSchedule").build());
			return node;
		});
		try {
			Fiber fiber = open(Map.of("pending-timeout", "15s"));
			// Without the toleration, the taint keeps it off the only node.
			FiberProcess shunned = fiber.process(() -> System.out.println("never")).name("shunned").start().block(LONG);
			assertThat(shunned.onRunning().map(x -> "ran").onErrorResume(e -> reactor.core.publisher.Mono.just(e.getMessage())).block(LONG))
					.contains("was not placed on a machine").contains("taint");
			Placement placement = Placement.none().toleration(Placement.Toleration.parse(TAINT + "=ml:NoSchedule"))
					.affinity("{\"nodeAffinity\":{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[{\"matchExpressions\":"
							+ "[{\"key\":\"kubernetes.io/hostname\",\"operator\":\"In\",\"values\":[\"" + NODE + "\"]}]}]}}}")
					.priorityClass("fiber-test-urgent").label("team", "rl");
			FiberProcess welcome = fiber.process(() -> System.out.println("welcome")).name("welcome").placement(placement).start()
					.block(LONG);
			Pod pod = client.pods().inNamespace(ns).withName(welcome.jobId()).get();
			welcome.join().block(LONG);
			assertThat(welcome.logs().collectList().block(LONG)).contains("welcome");
			assertThat(pod.getSpec().getPriority()).isEqualTo(1000);
			assertThat(pod.getMetadata().getLabels()).containsEntry("team", "rl");
		}
		finally {
			editNode(node -> {
				node.getSpec().getTaints().removeIf(taint -> TAINT.equals(taint.getKey()));
				return node;
			});
		}
	}

	@Test
	void aJobNeverPlacedFailsNamingTheSchedulersReason() {
		Fiber fiber = open(Map.of("pending-timeout", "10s"));
		FiberProcess process = fiber.process(() -> System.out.println("never")).name("huge").placement(Placement.none()
				.nodeSelector(LABEL, "none-such")).start().block(LONG);
		Throwable error = process.onRunning().map(x -> (Throwable) null).onErrorResume(e -> reactor.core.publisher.Mono.just(e))
				.block(LONG);
		assertThat(error).isInstanceOf(ProcessFailedException.class)
				.hasMessageContaining("was not placed on a machine within PT10S (fiber.pending-timeout)")
				.hasMessageContaining("0/1 nodes are available");
	}

	@Test
	void aPoolGrowsAsItsWaitingWorkersArePlaced() {
		Fiber fiber = open(Map.of());
		// A process holding a core leaves room for one of the pool's two workers.
		FiberProcess hog = fiber.process(() -> java.util.concurrent.locks.LockSupport.parkNanos(Long.MAX_VALUE)).name("hog").cpu(1)
				.start().block(LONG);
		hog.onRunning().block(LONG);
		io.fiberjvm.pool.FiberPool pool = fiber.pool(2).cpu(0.9).open();
		assertThat(pool.map((FiberFunction<Integer, Integer>) x -> x + 1, Flux.range(0, 20)).collectList().block(LONG)).hasSize(20);
		assertThat(pool.stats().workers()).isEqualTo(1);
		hog.terminate().block(LONG);
		// The core is free: the waiting worker is placed, starts and joins the pool.
		await().atMost(LONG).until(() -> pool.stats().workers() == 2);
		assertThat(pool.map((FiberFunction<Integer, Integer>) x -> x + 1, Flux.range(0, 20)).collectList().block(LONG)).hasSize(20);
	}

	@Test
	void aPoolStartsWithTheWorkersThatFitAndMapsWithThem() {
		Fiber fiber = open(Map.of());
		// Two such workers fit on the node's two cores; the third waits for a node with room.
		io.fiberjvm.pool.FiberPool pool = fiber.pool(3).cpu(0.9).open();
		List<Integer> squares = pool.map((FiberFunction<Integer, Integer>) x -> x * x, Flux.range(0, 50)).collectList().block(LONG);
		assertThat(squares).hasSize(50);
		List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
		assertThat(pods).hasSize(3);
		assertThat(pods).filteredOn(p -> "Pending".equals(p.getStatus().getPhase())).singleElement()
				.satisfies(p -> assertThat(p.getStatus().getConditions()).anySatisfy(c -> assertThat(c.getMessage()).contains("Insufficient cpu")));
	}

	@Test
	void anAutoscalingPoolGrowsIntoTheRoomThereIsAndWorksWhileItsPendingWorkerWaits() {
		Fiber fiber = open(Map.of());
		// Two workers of 0.9 cores fit on the node's two cores: the pool grows to three, and the third stays Pending.
		io.fiberjvm.pool.FiberPool pool = fiber.pool(io.fiberjvm.pool.PoolScaling.between(1, 3).queueTime(Duration.ofMillis(200)))
				.cpu(0.9).chunkSize(1).open();
		List<Integer> inputs = java.util.stream.IntStream.range(0, 80).boxed().toList();
		assertThat(pool.map((FiberFunction<Integer, Integer>) x -> {
			java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(150).toNanos());
			return x;
		}, inputs).collectList().block(LONG)).isEqualTo(inputs);
		await().atMost(LONG).untilAsserted(() -> {
			assertThat(pool.stats().target()).isEqualTo(3);
			assertThat(client.pods().inNamespace(ns).list().getItems()).filteredOn(p -> "Pending".equals(p.getStatus().getPhase()))
					.singleElement().satisfies(p -> assertThat(p.getStatus().getConditions())
							.anySatisfy(c -> assertThat(c.getMessage()).contains("Insufficient cpu")));
		});
		// The Pending worker is not counted as started: two take tasks, and nothing was lost or run twice.
		io.fiberjvm.pool.PoolStats stats = pool.stats();
		assertThat(stats.workers()).isEqualTo(2);
		assertThat(stats.completed()).isEqualTo(inputs.size());
		assertThat(stats.lost()).isZero();
		assertThat(stats.retried()).isZero();
		assertThat(fiber.status().pools()).singleElement().satisfies(status -> {
			assertThat(status.working()).isEqualTo(2);
			assertThat(status.workers()).anySatisfy(worker -> assertThat(worker.state()).isEqualTo("starting"));
		});
	}
}
