package io.fiberjvm.k8s.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import io.fiberjvm.k8s.TestCluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The fiber command line end to end, against the real API server with the node agent as kubelet. */
@ExtendWith(TestCluster.Resolver.class)
class FiberCliTest {

	private final TestCluster cluster;
	private final KubernetesClient client;
	private final String ns;

	@TempDir
	Path dir;

	FiberCliTest(TestCluster cluster) {
		this.cluster = cluster;
		this.client = cluster.client();
		this.ns = cluster.servedNamespace("cli");
	}

	/** What one command printed and how it exited. */
	private record Outcome(int code, String out, String err) {
	}

	private Outcome fiber(String... args) {
		StringWriter out = new StringWriter();
		StringWriter err = new StringWriter();
		int code = FiberCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
		return new Outcome(code, out.toString(), err.toString());
	}

	private String[] inCluster(String command, String... rest) {
		String[] args = new String[rest.length + 5];
		args[0] = command;
		args[1] = "--kubeconfig";
		args[2] = cluster.kubeconfig().toString();
		args[3] = "-n";
		args[4] = ns;
		System.arraycopy(rest, 0, args, 5, rest.length);
		return args;
	}

	@AfterEach
	void deletePods() {
		client.pods().inNamespace(ns).withGracePeriod(0).delete();
		await().atMost(Duration.ofSeconds(60)).until(() -> client.pods().inNamespace(ns).list().getItems().isEmpty());
	}

	@Test
	void everyCommandHasHelp() {
		for (String command : new String[] {"run", "ps", "logs", "cp"}) {
			Outcome help = fiber(command, "--help");
			assertThat(help.code()).as(command).isZero();
			assertThat(help.out()).contains("Usage: fiber " + command).contains("--kubeconfig");
		}
		assertThat(fiber("--help").out()).contains("run", "ps", "logs", "cp");
		Outcome none = fiber();
		assertThat(none.code()).isEqualTo(2);
		assertThat(none.err()).contains("a command is needed");
	}

	@Test
	void runWithAttachFollowsTheOutputAndExitsWithTheProgramsCode() {
		Outcome run = fiber(inCluster("run", "--image", "app:1", "--name", "prog", "--attach", "--",
				"sh", "-c", "echo line one; echo line two; exit 4"));
		assertThat(run.out()).contains("pod/prog created in namespace " + ns, "line one", "line two");
		assertThat(run.code()).as(run.err()).isEqualTo(4);
	}

	@Test
	void runMakesTheMasterPodAsAsked() {
		Outcome run = fiber(inCluster("run", "--image", "registry.example/app:2", "--cpu", "1.5", "--memory", "2Gi",
				"--gpu", "1", "-v", "data", "--name", "master-a", "--", "java", "-jar", "/app/app.jar"));
		assertThat(run.code()).as(run.err()).isZero();
		Pod pod = client.pods().inNamespace(ns).withName("master-a").get();
		assertThat(pod.getMetadata().getLabels()).containsEntry("fiber-role", "master");
		assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
		assertThat(pod.getSpec().getServiceAccountName()).isEqualTo("fiber");
		var container = pod.getSpec().getContainers().get(0);
		assertThat(container.getImage()).isEqualTo("registry.example/app:2");
		assertThat(container.getCommand()).containsExactly("java", "-jar", "/app/app.jar");
		assertThat(container.getResources().getRequests()).containsEntry("cpu", new Quantity("1500m"))
				.containsEntry("memory", new Quantity(Long.toString(2L << 30)));
		assertThat(container.getResources().getLimits()).containsEntry("nvidia.com/gpu", new Quantity("1"));
		assertThat(container.getVolumeMounts()).singleElement().satisfies(m -> assertThat(m.getMountPath()).isEqualTo("/persistent/data"));
		assertThat(pod.getSpec().getVolumes()).singleElement()
				.satisfies(v -> assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("data"));
	}

	@Test
	void psListsMastersAndTheirJobsAndLogsPrintsAPodsOutput() {
		assertThat(fiber(inCluster("run", "--image", "app:1", "--name", "prog-ps", "--attach", "--", "sh", "-c", "echo ready"))
				.code()).isZero();
		client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("worker-x-1")
				.withLabels(Map.of("fiber-run", "x", "fiber-parent", "prog-ps")).endMetadata()
				.withNewSpec().withRestartPolicy("Never").addNewContainer().withName("worker").withImage("app:1")
				.withCommand("sh", "-c", "echo working; exec sleep 600").endContainer().endSpec().build()).create();
		await().atMost(Duration.ofSeconds(60)).until(() -> fiber(inCluster("ps")).out().lines()
				.anyMatch(line -> line.startsWith("worker-x-1") && line.contains("running")));
		Outcome ps = fiber(inCluster("ps"));
		assertThat(ps.out().lines().findFirst().orElseThrow()).contains("NAME", "KIND", "PARENT", "STATUS", "EXIT", "AGE");
		assertThat(ps.out().lines().filter(l -> l.startsWith("prog-ps"))).singleElement()
				.satisfies(l -> assertThat(l).contains("master", "succeeded", " 0 "));
		assertThat(ps.out().lines().filter(l -> l.startsWith("worker-x-1"))).singleElement()
				.satisfies(l -> assertThat(l).contains("job", "prog-ps", "running"));
		assertThat(fiber(inCluster("ps", "--run", "y")).out().lines().count()).isEqualTo(1);

		Outcome logs = fiber(inCluster("logs", "prog-ps"));
		assertThat(logs.code()).isZero();
		assertThat(logs.out()).isEqualTo("ready\n");
		assertThat(fiber(inCluster("logs", "worker-x-1")).out()).contains("working");
		Outcome missing = fiber(inCluster("logs", "nope"));
		assertThat(missing.code()).isEqualTo(2);
		assertThat(missing.err()).contains("no pod nope in namespace " + ns);
	}

	@Test
	void psShowsTheRunsOfStatusConfigMapsWhoseMasterIsGoneAsEndedAndAnUnreadableOnePlainly() {
		io.fiberjvm.backend.RunStatus status = new io.fiberjvm.backend.RunStatus("z", 7, "kubernetes", "2026-11-23T05:00:00Z", List.of(),
				List.of(new io.fiberjvm.backend.RunStatus.Pool("crunch", 2, 1, 4, List.of(new io.fiberjvm.backend.RunStatus.Worker("crunch-w1", "crunch-0",
						"working")))));
		client.configMaps().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata()
				.withName("fiber-status-z").withLabels(Map.of("fiber-run", "z", io.fiberjvm.k8s.RunStatusMap.LABEL, "true")).endMetadata()
				.withData(Map.of(io.fiberjvm.k8s.RunStatusMap.DATA_KEY, new String(status.toJson(), java.nio.charset.StandardCharsets.UTF_8)))
				.build()).create();
		client.configMaps().inNamespace(ns).resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata()
				.withName("fiber-status-q").withLabels(Map.of("fiber-run", "q", io.fiberjvm.k8s.RunStatusMap.LABEL, "true")).endMetadata()
				.withData(Map.of(io.fiberjvm.k8s.RunStatusMap.DATA_KEY, "{not json")).build()).create();
		try {
			Outcome ps = fiber(inCluster("ps"));
			assertThat(ps.code()).isZero();
			// No pod of run z runs: its master is gone, and so are its workers.
			assertThat(ps.out().lines().filter(l -> l.startsWith("crunch "))).singleElement()
					.satisfies(l -> assertThat(l).contains("pool", "run-z", "no pod of the run is running"));
			assertThat(ps.out()).doesNotContain("crunch-w1");
			assertThat(ps.out().lines().filter(l -> l.startsWith("fiber-status-q"))).singleElement()
					.satisfies(l -> assertThat(l).contains("status", "unreadable: ConfigMap fiber-status-q: not a run status"));
			assertThat(fiber(inCluster("ps", "--run", "z")).out()).doesNotContain("fiber-status-q");
		}
		finally {
			client.configMaps().inNamespace(ns).withLabel(io.fiberjvm.k8s.RunStatusMap.LABEL).delete();
		}
	}

	@Test
	void cpCopiesFilesIntoAndOutOfAClaimThatProgramsMount() throws Exception {
		client.persistentVolumeClaims().inNamespace(ns).resource(new PersistentVolumeClaimBuilder().withNewMetadata()
				.withName("data").endMetadata().withNewSpec().withAccessModes("ReadWriteMany").withNewResources()
				.addToRequests("storage", new Quantity("1Gi")).endResources().endSpec().build()).create();
		byte[] bytes = new byte[300_000];
		new Random(3).nextBytes(bytes);
		Path weights = Files.write(dir.resolve("weights.bin"), bytes);

		Outcome up = fiber(inCluster("cp", weights.toString(), "data:models/weights.bin"));
		assertThat(up.code()).as(up.err()).isZero();
		assertThat(up.out()).contains("copied 300000 bytes to data:models/weights.bin");

		// A program started with the claim sees the file where its jobs would.
		Outcome reader = fiber(inCluster("run", "--image", "app:1", "-v", "data", "--attach", "--",
				"sh", "-c", "wc -c < /persistent/data/models/weights.bin; echo done > /persistent/data/results.txt"));
		assertThat(reader.code()).as(reader.err()).isZero();
		assertThat(reader.out()).contains("300000");

		Path back = dir.resolve("back");
		Files.createDirectories(back);
		Outcome down = fiber(inCluster("cp", "data:models/weights.bin", back.toString()));
		assertThat(down.code()).as(down.err()).isZero();
		assertThat(Files.readAllBytes(back.resolve("weights.bin"))).isEqualTo(bytes);
		assertThat(fiber(inCluster("cp", "data:results.txt", back.resolve("r.txt").toString())).code()).isZero();
		assertThat(Files.readString(back.resolve("r.txt"))).isEqualTo("done\n");

		Outcome missingFile = fiber(inCluster("cp", "data:no/such.bin", back.toString()));
		assertThat(missingFile.code()).isEqualTo(2);
		assertThat(missingFile.err()).contains("reading /persistent/data/no/such.bin failed");
		assertThat(fiber(inCluster("cp", "data:x", "data:y")).err()).contains("exactly one of SOURCE and DESTINATION");
		assertThat(fiber(inCluster("cp", weights.toString(), "nodata:x")).err()).contains("no persistent volume claim nodata");
		assertThat(fiber(inCluster("cp", weights.toString(), "data:../escape")).err()).contains("must stay inside the claim");
	}

	@Test
	void aClusterThatCannotBeReachedIsSaidPlainly() throws Exception {
		int closedPort;
		try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		String config = Files.readString(cluster.kubeconfig()).replaceAll("server: https://[^\\s]+", "server: https://127.0.0.1:" + closedPort);
		Path unreachable = Files.writeString(dir.resolve("unreachable"), config);
		Outcome ps = fiber("ps", "--kubeconfig", unreachable.toString());
		assertThat(ps.code()).isEqualTo(1);
		assertThat(ps.err()).contains("no Kubernetes cluster is reachable").contains("--kubeconfig");
		Outcome noFile = fiber("ps", "--kubeconfig", dir.resolve("absent").toString());
		assertThat(noFile.code()).isEqualTo(2);
		assertThat(noFile.err()).contains("no such readable file");
	}
}
