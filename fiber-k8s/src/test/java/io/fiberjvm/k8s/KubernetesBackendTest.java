package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.fiberjvm.FiberException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.Backend;
import io.fiberjvm.testkit.BackendContract;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.JobStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The Kubernetes backend against a real kube-apiserver and etcd, with the node agent as its kubelet:
 * the backend contract every backend passes, and what only pods have (specs, the Secret, deletion).
 */
@ExtendWith(TestCluster.Resolver.class)
class KubernetesBackendTest implements BackendContract {

	private final TestCluster cluster;
	private final KubernetesClient client;
	private final String ns;
	private final List<Backend> backends = new CopyOnWriteArrayList<>();

	KubernetesBackendTest(TestCluster cluster) {
		this.cluster = cluster;
		this.client = cluster.client();
		this.ns = cluster.namespace(NodeAgent.SERVED_PREFIX + "backend");
	}

	@Override
	public Backend openBackend() {
		return open(new KubernetesSettings(ns, "fiber-test:1", List.of(), "", Duration.ofSeconds(2)));
	}

	private KubernetesBackend open(KubernetesSettings settings) {
		KubernetesBackend backend = new KubernetesBackend(client, false, settings);
		backends.add(backend);
		return backend;
	}

	@AfterEach
	void closeBackends() {
		backends.forEach(Backend::close);
		await().atMost(Duration.ofSeconds(60)).until(() -> client.pods().inNamespace(ns).list().getItems().isEmpty());
	}

	@Test
	void eachJobIsAPodWhoseSpecHoldsNoSecretValue() {
		Backend backend = openBackend();
		JobSpec spec = job("exec sleep 600").withResources(new ResourceSpec(0.25, 64L * 1024 * 1024, 0));
		Job job = backend.create(spec).block(LIMIT);
		job.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);
		Pod pod = client.pods().inNamespace(ns).withName(spec.name()).get();
		assertThat(pod.getMetadata().getLabels()).containsEntry("fiber-run", "contract")
				.containsKey(KubernetesBackend.BACKEND_LABEL);
		assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
		assertThat(pod.getSpec().getContainers().get(0).getImage()).isEqualTo("fiber-test:1");
		assertThat(pod.getSpec().getContainers().get(0).getResources().getRequests()).containsKeys("cpu", "memory");
		assertThat(Serialization.asYaml(pod)).doesNotContain("contract-secret");
		// The secret is in the run's Secret, which the pod only refers to.
		assertThat(client.secrets().inNamespace(ns).withName(RunSecret.name("contract")).get()).isNotNull();
		job.terminate().block(LIMIT);
	}

	@Test
	void terminateWithAGraceOfItsOwnDeletesThePodWithThatGraceNotTheBackends() {
		Backend backend = open(new KubernetesSettings(ns, "fiber-test:1", List.of(), "", Duration.ofHours(1)));
		Job job = backend.create(job("trap '' TERM; echo ready; while true; do sleep 1; done")).block(LIMIT);
		job.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);

		job.terminate(Duration.ofSeconds(1)).block(LIMIT);

		assertThat(job.status().isTerminal()).isTrue();
	}

	@Test
	void aPodDeletedByAnyoneEndsItsJob() {
		Backend backend = openBackend();
		JobSpec spec = job("exec sleep 600");
		Job job = backend.create(spec).block(LIMIT);
		job.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);
		client.pods().inNamespace(ns).withName(spec.name()).withGracePeriod(1).delete();
		JobStatus end = job.onTerminal().block(LIMIT);
		assertThat(end.phase()).isEqualTo(JobStatus.Phase.FAILED);
		await().atMost(LIMIT).until(() -> cluster.agent().runningPods() == 0
				|| client.pods().inNamespace(ns).withName(spec.name()).get() == null);
	}

	@Test
	void closingTheBackendDeletesItsPodsAndTheRunSecret() {
		Backend backend = openBackend();
		Job job = backend.create(job("exec sleep 600")).block(LIMIT);
		job.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);
		backend.close();
		await().atMost(LIMIT).until(() -> client.pods().inNamespace(ns).withLabel(KubernetesBackend.BACKEND_LABEL).list()
				.getItems().isEmpty());
		assertThat(client.secrets().inNamespace(ns).withName(RunSecret.name("contract")).get()).isNull();
	}

	@Test
	void theParentPodOwnsTheJobsAndLendsThemItsImage() {
		Pod parent = client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("master").endMetadata()
				.withNewSpec().addNewContainer().withName("main").withImage("registry.example/app:7")
				.withCommand("sh", "-c", "exec sleep 600").endContainer().endSpec().build()).create();
		Backend backend = open(new KubernetesSettings(ns, "", List.of(), "master", Duration.ofSeconds(2)));
		JobSpec spec = job("exit 0");
		Job job = backend.create(spec).block(LIMIT);
		assertThat(job.onTerminal().block(LIMIT).exitCode()).isZero();
		Pod child = client.pods().inNamespace(ns).withName(spec.name()).get();
		assertThat(child.getSpec().getContainers().get(0).getImage()).isEqualTo("registry.example/app:7");
		assertThat(child.getMetadata().getOwnerReferences()).singleElement()
				.satisfies(owner -> assertThat(owner.getUid()).isEqualTo(parent.getMetadata().getUid()));
		assertThat(client.secrets().inNamespace(ns).withName(RunSecret.name("contract")).get().getMetadata().getOwnerReferences())
				.singleElement().satisfies(owner -> assertThat(owner.getName()).isEqualTo("master"));
		client.pods().inNamespace(ns).withName("master").withGracePeriod(0).delete();
	}

	@Test
	void aPodThatCannotStartFailsItsJobAndIsDeleted() {
		Backend backend = openBackend();
		JobSpec spec = JobSpec.of("no-program-1", List.of("/no/such/program"))
				.withEnvironment(java.util.Map.of(io.fiberjvm.backend.JobSpec.SECRET_ENV, "contract-secret"))
				.withLabel("fiber-run", "contract");
		Job job = backend.create(spec).block(LIMIT);
		JobStatus end = job.onTerminal().block(LIMIT);
		assertThat(end.phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(end.message()).contains("cannot start").contains("RunContainerError");
		// Given up on, so it must not start later as an orphan.
		await().atMost(LIMIT).until(() -> client.pods().inNamespace(ns).withName(spec.name()).get() == null);
	}

	@Test
	void aSecretThisRunDidNotMakeIsNeitherUsedNorDeleted() {
		client.secrets().inNamespace(ns).resource(RunSecret.of(ns, "taken", "someone-elses", null)).create();
		Backend backend = openBackend();
		JobSpec spec = JobSpec.of("taken-1", List.of("true"))
				.withEnvironment(java.util.Map.of(io.fiberjvm.backend.JobSpec.SECRET_ENV, "mine"))
				.withLabel("fiber-run", "taken");
		assertThatThrownBy(() -> backend.create(spec).block(LIMIT)).isInstanceOf(FiberException.class)
				.hasMessageContaining(RunSecret.name("taken")).hasMessageContaining("already exists");
		backend.close();
		assertThat(client.secrets().inNamespace(ns).withName(RunSecret.name("taken")).get()).isNotNull();
		client.secrets().inNamespace(ns).withName(RunSecret.name("taken")).delete();
	}

	@Test
	void aParentPodThatDoesNotExistIsAClearError() {
		Backend backend = open(new KubernetesSettings(ns, "", List.of(), "no-such-pod", Duration.ofSeconds(2)));
		assertThatThrownBy(() -> backend.create(job("exit 0")).block(LIMIT))
				.isInstanceOf(FiberException.class)
				.hasMessageContaining("pod-name").hasMessageContaining("no-such-pod").hasMessageContaining(ns);
	}

	@Test
	void aPodTheApiServerRefusesIsAClearError() {
		Backend backend = open(new KubernetesSettings("no-such-namespace", "fiber-test:1", List.of(), "",
				Duration.ofSeconds(2)));
		assertThatThrownBy(() -> backend.create(job("exit 0")).block(LIMIT))
				.isInstanceOf(FiberException.class)
				.hasMessageContaining("no-such-namespace");
	}

	@Test
	void aFollowedLogThatBreaksGoesOnWhereItStoppedAndEndsWithTheWholeOutputOnce() throws Exception {
		Backend backend = openBackend();
		// A progress bar's carriage return stays inside its line.
		Job job = backend.create(job("printf 'bar 1\\rbar 2\\n'; for i in $(seq 1 60); do echo line $i; sleep 0.05; done")).block(LIMIT);
		List<String> seen = new CopyOnWriteArrayList<>();
		java.util.concurrent.CompletableFuture<List<String>> all = job.follow().doOnNext(seen::add).collectList().toFuture();
		await().atMost(LIMIT).until(() -> seen.size() >= 10);
		cluster.agent().breakLogStreams();
		await().atMost(LIMIT).until(() -> seen.size() >= 30);
		cluster.agent().breakLogStreams();
		List<String> expected = new java.util.ArrayList<>(List.of("bar 1\rbar 2"));
		java.util.stream.IntStream.rangeClosed(1, 60).forEach(i -> expected.add("line " + i));
		assertThat(all.get(LIMIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).containsExactlyElementsOf(expected);
	}
}
