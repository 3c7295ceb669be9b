package io.fiberjvm.k8s.cli;

import java.io.OutputStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.internal.DataSize;
import io.fiberjvm.k8s.MasterPod;
import io.fiberjvm.k8s.PodStatuses;

/** {@code fiber run}: creates a program's master pod, and with {@code --attach} follows it to its end. */
@Command(name = "run", mixinStandardHelpOptions = true,
		description = {"Starts a program on the cluster in a master pod of its own; its job-backed processes become pods "
				+ "owned by it, in its image, with its claims.",
				"Example: fiber run --image registry.example/app:1 --cpu 1 --memory 2Gi -v data --attach -- "
						+ "java -cp /app/app.jar com.example.Main"})
final class RunCommand implements Callable<Integer> {

	@Mixin
	ClusterOptions cluster;

	@Spec
	CommandSpec spec;

	@Option(names = "--image", required = true, description = "Image holding Java and the program; its jobs use it too.")
	String image;

	@Option(names = "--cpu", paramLabel = "CORES", description = "CPU cores requested and limited, e.g. 0.5 or 2.")
	double cpu;

	@Option(names = "--memory", paramLabel = "SIZE", description = "Memory requested and limited, e.g. 512Mi or 4Gi.")
	@Nullable String memory;

	@Option(names = "--gpu", paramLabel = "COUNT", description = "GPUs (nvidia.com/gpu).")
	int gpu;

	@Option(names = {"-v", "--volume"}, paramLabel = "CLAIM",
			description = "A persistent volume claim to mount at /persistent/CLAIM; repeat for more.")
	List<String> claims = new ArrayList<>();

	@Option(names = "--attach", description = "Follow the program's output, and exit with its exit code.")
	boolean attach;

	@Option(names = "--name", description = "The master pod's name; default: fiber-<random>.")
	@Nullable String name;

	@Option(names = "--service-account", paramLabel = "ACCOUNT", defaultValue = "fiber",
			description = "Service account the program runs as (default: ${DEFAULT-VALUE}, from fiber-k8s/rbac.yaml); '' for the namespace's default.")
	String serviceAccount;

	@Parameters(arity = "1..*", paramLabel = "COMMAND", description = "The program's command, after --.")
	List<String> command;

	@Override
	public Integer call() throws Exception {
		ResourceSpec resources;
		try {
			resources = new ResourceSpec(cpu, memory == null ? 0 : DataSize.parse(memory), gpu);
		}
		catch (IllegalArgumentException e) {
			throw new CliException("bad resources: " + e.getMessage());
		}
		String podName = name != null ? name : "fiber-" + UUID.randomUUID().toString().substring(0, 8);
		if (!podName.matches("[a-z0-9]([-a-z0-9]*[a-z0-9])?") || podName.length() > 63) {
			throw new CliException("--name '" + podName + "' is not a pod name (lower-case letters, digits and '-', at most 63)");
		}
		PrintWriter out = spec.commandLine().getOut();
		try (KubernetesClient client = cluster.connect()) {
			String namespace = cluster.namespace(client);
			Pod pod;
			try {
				pod = MasterPod.of(podName, namespace, image, command, resources, claims, serviceAccount);
			}
			catch (IllegalArgumentException e) {
				throw new CliException(String.valueOf(e.getMessage()));
			}
			client.pods().inNamespace(namespace).resource(pod).create();
			out.println("pod/" + podName + " created in namespace " + namespace);
			out.flush();
			if (!attach) {
				return 0;
			}
			return follow(client.pods().inNamespace(namespace).withName(podName), out);
		}
	}

	/** Streams the output once the container has started, then waits (on a watch) for the end. */
	private static int follow(PodResource pod, PrintWriter out) {
		Pod started = pod.waitUntilCondition(p -> p == null || !PodStatuses.of(p).phase().isWaiting(),
				1, TimeUnit.DAYS);
		if (started == null) {
			throw new CliException("the pod was deleted before it started");
		}
		OutputStream sink = new WriterSink(out);
		JobStatus first = PodStatuses.of(started);
		if (first.isTerminal() && first.message().startsWith("the pod cannot start")) {
			throw new CliException(first.message() + " (the pod is left for inspection: fiber ps, kubectl describe pod)");
		}
		if (first.phase() == JobStatus.Phase.RUNNING) {
			try (LogWatch logs = pod.inContainer(MasterPod.CONTAINER).watchLog(sink)) {
				logs.onClose().toCompletableFuture().join();
			}
		}
		else {
			out.print(pod.inContainer(MasterPod.CONTAINER).getLog());
		}
		Pod ended = pod.waitUntilCondition(p -> p == null || PodStatuses.of(p).isTerminal(), 1, TimeUnit.DAYS);
		out.flush();
		if (ended == null) {
			throw new CliException("the pod was deleted before it ended");
		}
		JobStatus status = PodStatuses.of(ended);
		if (!Integer.valueOf(0).equals(status.exitCode())) {
			report(out, status);
		}
		// An ended pod has an exit code; one that ended without (its node went away) is a failure.
		Integer code = status.exitCode();
		return code == null ? 1 : code;
	}

	private static void report(PrintWriter out, JobStatus status) {
		out.println("(" + status.phase().name().toLowerCase(Locale.ROOT) + ", exit code " + status.exitCode()
				+ (status.message().isEmpty() ? "" : ": " + status.message()) + ")");
		out.flush();
	}
}
