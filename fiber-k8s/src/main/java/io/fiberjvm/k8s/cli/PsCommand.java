package io.fiberjvm.k8s.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import io.fiberjvm.Fiber;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.k8s.MasterPod;
import io.fiberjvm.k8s.PodStatuses;
import io.fiberjvm.k8s.RunStatusMap;

/**
 * {@code fiber ps}: the master pods of programs, the pods of their job-backed processes, and their pools
 * and pool workers (from each run's {@link RunStatusMap}); with {@code --local}, the runs on this machine
 * with their processes, pools and workers.
 */
@Command(name = "ps", mixinStandardHelpOptions = true,
		description = {"Lists programs' master pods, their job pods (name, kind, parent, status, exit code, age), and their "
				+ "pools with each pool worker and the pod hosting it.",
				"With --local: the runs on this machine (from the runs directory), their processes, pools and pool workers."})
final class PsCommand implements Callable<Integer> {

	@Mixin
	ClusterOptions cluster;

	@Spec
	CommandSpec spec;

	@Option(names = "--run", paramLabel = "RUN", description = "Only the job pods (or, with --local, the run) of this run id.")
	@Nullable String run;

	@Option(names = "--local", description = "The runs of programs on this machine instead of a cluster's pods.")
	boolean local;

	@Option(names = "--runs-dir", paramLabel = "DIR",
			description = "Where local runs keep their status (the runs-dir key; default: java.io.tmpdir/fiber-runs).")
	@Nullable Path runsDir;

	@Override
	public Integer call() {
		PrintWriter out = spec.commandLine().getOut();
		if (local) {
			printLocal(out);
			return 0;
		}
		try (KubernetesClient client = cluster.connect()) {
			String namespace = cluster.namespace(client);
			Map<String, Pod> pods = new LinkedHashMap<>();
			if (run == null) {
				client.pods().inNamespace(namespace).withLabel(MasterPod.ROLE_LABEL).list().getItems()
						.forEach(p -> pods.put(p.getMetadata().getName(), p));
				client.pods().inNamespace(namespace).withLabel("fiber-run").list().getItems()
						.forEach(p -> pods.put(p.getMetadata().getName(), p));
			}
			else {
				client.pods().inNamespace(namespace).withLabel("fiber-run", run).list().getItems()
						.forEach(p -> pods.put(p.getMetadata().getName(), p));
			}
			List<String[]> rows = new ArrayList<>();
			rows.add(new String[] {"NAME", "KIND", "PARENT", "STATUS", "EXIT", "AGE"});
			pods.values().stream().sorted(Comparator.comparing((Pod p) -> p.getMetadata().getCreationTimestamp())
					.thenComparing(p -> p.getMetadata().getName())).forEach(p -> rows.add(row(p)));
			var statuses = run == null ? client.configMaps().inNamespace(namespace).withLabel(RunStatusMap.LABEL)
					: client.configMaps().inNamespace(namespace).withLabel(RunStatusMap.LABEL).withLabel("fiber-run", run);
			statuses.list().getItems().stream().sorted(Comparator.comparing(m -> m.getMetadata().getCreationTimestamp()))
					.forEach(map -> poolRows(client, namespace, pods, map, rows));
			print(out, rows);
		}
		return 0;
	}

	/**
	 * A row per pool of the run the ConfigMap describes, each followed by a row per worker, named by the pod
	 * hosting it. A run whose master's pod has ended or gone left its ConfigMap behind: its pools are shown
	 * as ended, without workers; so are those of a run started outside the cluster none of whose pods runs.
	 */
	private static void poolRows(KubernetesClient client, String namespace, Map<String, Pod> pods, ConfigMap map,
			List<String[]> rows) {
		RunStatus status;
		try {
			status = RunStatusMap.read(map);
		}
		catch (IllegalArgumentException unreadable) {
			rows.add(new String[] {map.getMetadata().getName(), "status", "-", "unreadable: " + unreadable.getMessage(), "-", "-"});
			return;
		}
		String parentPod = map.getMetadata().getLabels().get("fiber-parent");
		String parent = parentPod != null ? parentPod : "run-" + status.run();
		// A master in a pod is alive while its pod runs; one outside the cluster is seen only through its pods, all
		// of which are listed already. A master pod not started by fiber run is not, so it is asked for.
		boolean live = parentPod != null
				? running(pods.containsKey(parentPod) ? pods.get(parentPod) : client.pods().inNamespace(namespace).withName(parentPod).get())
				: pods.values().stream().anyMatch(p -> status.run().equals(p.getMetadata().getLabels().get("fiber-run")) && running(p));
		String gone = parentPod != null ? "ended: the run's master pod is gone" : "no pod of the run is running (its master, "
				+ "outside the cluster, has ended or has no pods now)";
		boolean omitted = RunStatusMap.workersOmitted(map);
		for (RunStatus.Pool pool : status.pools()) {
			String state = !live ? gone : omitted ? pool.target() + " workers (too many to list)" + scaling(pool)
					: pool.working() + " of " + pool.target() + " working" + scaling(pool);
			rows.add(new String[] {pool.name(), "pool", parent, state, "-", "-"});
			if (!live) {
				continue;
			}
			for (RunStatus.Worker worker : pool.workers()) {
				RunStatus.Process host = status.process(worker.process());
				rows.add(new String[] {worker.name(), "worker", host == null ? worker.process() : host.job(), worker.state(), "-", "-"});
			}
		}
	}

	/** The bounds of a pool that sizes itself, after its size; nothing for a pool of a fixed size. */
	private static String scaling(RunStatus.Pool pool) {
		return pool.scales() ? ", scaling between " + pool.min() + " and " + pool.max() : "";
	}

	/** Whether a pod is there and has not ended. */
	private static boolean running(Pod pod) {
		return pod != null && pod.getMetadata().getDeletionTimestamp() == null && !PodStatuses.of(pod).isTerminal();
	}

	/** One row per run's master, process, pool and pool worker. */
	private void printLocal(PrintWriter out) {
		Path dir = runsDir != null ? runsDir : RunStatus.directory(Fiber.builder().config());
		List<String[]> rows = new ArrayList<>();
		rows.add(new String[] {"RUN", "KIND", "NAME", "STATE", "PID", "DETAIL"});
		for (RunStatus status : RunStatus.readAll(dir)) {
			if (run != null && !run.equals(status.run())) {
				continue;
			}
			rows.add(new String[] {status.run(), "master", "run-" + status.run(), "running", Long.toString(status.pid()),
					status.backend() + " backend, since " + status.started()});
			for (RunStatus.Process process : status.processes()) {
				rows.add(new String[] {status.run(), "process", process.name(), process.state(), pid(process.pid()), process.job()});
			}
			for (RunStatus.Pool pool : status.pools()) {
				rows.add(new String[] {status.run(), "pool", pool.name(), pool.working() + " of " + pool.target() + " working", "-",
						pool.workers().size() + " workers" + scaling(pool)});
				for (RunStatus.Worker worker : pool.workers()) {
					RunStatus.Process host = status.process(worker.process());
					rows.add(new String[] {status.run(), "worker", worker.name(), worker.state(), host == null ? "-" : pid(host.pid()),
							"in process " + worker.process()});
				}
			}
		}
		if (rows.size() == 1) {
			out.println("no Fiber runs on this machine (looked in " + dir.toAbsolutePath() + ")");
			out.flush();
			return;
		}
		print(out, rows);
	}

	private static String pid(long pid) {
		return pid < 0 ? "-" : Long.toString(pid);
	}

	private static String[] row(Pod pod) {
		Map<String, String> labels = pod.getMetadata().getLabels();
		String kind = labels.containsKey("fiber-run") ? "job" : labels.getOrDefault(MasterPod.ROLE_LABEL, "?");
		JobStatus status = PodStatuses.of(pod);
		String phase = status.phase().name().toLowerCase(Locale.ROOT);
		if (pod.getMetadata().getDeletionTimestamp() != null && !status.isTerminal()) {
			phase = "terminating";
		}
		return new String[] {pod.getMetadata().getName(), kind, labels.getOrDefault("fiber-parent", "-"), phase,
				status.exitCode() == null ? "-" : status.exitCode().toString(), age(pod.getMetadata().getCreationTimestamp())};
	}

	private static String age(String created) {
		if (created == null) {
			return "-";
		}
		Duration age = Duration.between(Instant.parse(created), Instant.now());
		if (age.toDays() > 0) {
			return age.toDays() + "d";
		}
		if (age.toHours() > 0) {
			return age.toHours() + "h";
		}
		if (age.toMinutes() > 0) {
			return age.toMinutes() + "m";
		}
		return Math.max(0, age.toSeconds()) + "s";
	}

	private static void print(PrintWriter out, List<String[]> rows) {
		int[] widths = new int[rows.get(0).length];
		for (String[] row : rows) {
			for (int i = 0; i < row.length; i++) {
				widths[i] = Math.max(widths[i], row[i].length());
			}
		}
		for (String[] row : rows) {
			StringBuilder line = new StringBuilder();
			for (int i = 0; i < row.length; i++) {
				line.append(i == row.length - 1 ? row[i] : String.format("%-" + (widths[i] + 3) + "s", row[i]));
			}
			out.println(line.toString().stripTrailing());
		}
		out.flush();
	}
}
