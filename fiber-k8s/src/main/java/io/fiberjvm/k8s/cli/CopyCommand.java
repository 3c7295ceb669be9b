package io.fiberjvm.k8s.cli;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.fabric8.kubernetes.client.dsl.PodResource;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.k8s.MasterPod;
import io.fiberjvm.k8s.PodStatuses;

/**
 * {@code fiber cp}: copies a file into or out of a persistent volume claim, through a short-lived pod
 * that mounts the claim and is deleted afterwards; bytes travel over exec, as with {@code kubectl cp}.
 */
@Command(name = "cp", mixinStandardHelpOptions = true,
		description = {"Copies a file into or out of a persistent volume claim; one side is CLAIM:PATH, the path inside the claim.",
				"Examples: fiber cp weights.bin data:models/weights.bin    fiber cp data:results/run-7.csv ."})
final class CopyCommand implements Callable<Integer> {

	private static final Pattern REMOTE = Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?):(.*)");

	@Mixin
	ClusterOptions cluster;

	@Spec
	CommandSpec spec;

	@Option(names = "--image", defaultValue = "busybox:1.36",
			description = "Image of the pod that mounts the claim; it needs sh, cat, head, mkdir and mv (default: ${DEFAULT-VALUE}).")
	String image;

	@Option(names = "--timeout", defaultValue = "300", paramLabel = "SECONDS",
			description = "How long the pod may take to start, and the copy to finish (default: ${DEFAULT-VALUE}).")
	long timeoutSeconds;

	@Parameters(index = "0", paramLabel = "SOURCE")
	String source;

	@Parameters(index = "1", paramLabel = "DESTINATION")
	String destination;

	/** A path inside a claim. */
	private record ClaimPath(String claim, String path) {
	}

	@Override
	public Integer call() throws Exception {
		ClaimPath from = remote(source);
		ClaimPath to = remote(destination);
		if ((from == null) == (to == null)) {
			throw new CliException("exactly one of SOURCE and DESTINATION must be CLAIM:PATH, not '" + source + "' and '"
					+ destination + "'");
		}
		Path local = Path.of(from == null ? source : destination);
		ClaimPath claimPath = from != null ? from : to;
		if (to != null && !Files.isRegularFile(local)) {
			throw new CliException(local + " is not a file" + (Files.isDirectory(local) ? " (directories: tar them first)" : ""));
		}
		PrintWriter out = spec.commandLine().getOut();
		try (KubernetesClient client = cluster.connect()) {
			String namespace = cluster.namespace(client);
			if (client.persistentVolumeClaims().inNamespace(namespace).withName(claimPath.claim()).get() == null) {
				throw new CliException("no persistent volume claim " + claimPath.claim() + " in namespace " + namespace);
			}
			String holderName = "fiber-cp-" + UUID.randomUUID().toString().substring(0, 8);
			client.pods().inNamespace(namespace)
					.resource(MasterPod.claimHolder(holderName, namespace, image, claimPath.claim())).create();
			PodResource holder = client.pods().inNamespace(namespace).withName(holderName);
			try {
				awaitRunning(holder);
				String inside = MasterPod.CLAIM_ROOT + claimPath.claim() + "/" + claimPath.path();
				if (to != null) {
					if (claimPath.path().isEmpty() || claimPath.path().endsWith("/")) {
						inside = inside + local.getFileName();
					}
					long size = upload(holder, local, inside);
					out.println("copied " + size + " bytes to " + claimPath.claim() + ":" + inside.substring(
							(MasterPod.CLAIM_ROOT + claimPath.claim() + "/").length()));
				}
				else {
					Path target = Files.isDirectory(local) ? local.resolve(Path.of(claimPath.path()).getFileName()) : local;
					long size = download(holder, inside, target);
					out.println("copied " + size + " bytes to " + target);
				}
				out.flush();
				return 0;
			}
			finally {
				holder.withGracePeriod(0).delete();
			}
		}
	}

	private static @Nullable ClaimPath remote(String argument) {
		Matcher m = REMOTE.matcher(argument);
		if (!m.matches()) {
			return null;
		}
		String path = m.group(3).replaceAll("^/+", "");
		for (String segment : path.split("/")) {
			if (segment.equals("..")) {
				throw new CliException("'" + argument + "': the path must stay inside the claim (no '..')");
			}
		}
		return new ClaimPath(m.group(1), path);
	}

	private void awaitRunning(PodResource holder) {
		Pod pod;
		try {
			pod = holder.waitUntilCondition(p -> p == null || !PodStatuses.of(p).phase().isWaiting(),
					timeoutSeconds, TimeUnit.SECONDS);
		}
		catch (io.fabric8.kubernetes.client.KubernetesClientTimeoutException e) {
			Pod now = holder.get();
			throw new CliException("the copy pod did not start within " + timeoutSeconds + " s"
					+ (now == null ? "" : ": " + PodStatuses.of(now).message()));
		}
		if (pod == null || PodStatuses.of(pod).phase() != JobStatus.Phase.RUNNING) {
			throw new CliException("the copy pod did not run: " + (pod == null ? "deleted" : PodStatuses.of(pod).message()));
		}
	}

	/** Sends the file's bytes to {@code head -c SIZE}, which ends by itself once it has them all. */
	private long upload(PodResource holder, Path local, String inside) throws Exception {
		long size = Files.size(local);
		ByteArrayOutputStream errors = new ByteArrayOutputStream();
		try (ExecWatch exec = holder.inContainer(MasterPod.CONTAINER).redirectingInput().writingError(errors)
				.exec("sh", "-c", "mkdir -p \"$(dirname \"$1\")\" && head -c \"$2\" > \"$1.fiber-part\" && mv \"$1.fiber-part\" \"$1\"",
						"fiber-cp", inside, Long.toString(size));
				InputStream in = Files.newInputStream(local)) {
			OutputStream input = exec.getInput();
			in.transferTo(input);
			input.flush();
			check(exec, errors, "writing " + inside);
		}
		return size;
	}

	private long download(PodResource holder, String inside, Path target) throws Exception {
		Path part = Files.createTempFile(target.toAbsolutePath().getParent(), ".fiber-cp", ".part");
		ByteArrayOutputStream errors = new ByteArrayOutputStream();
		try {
			try (OutputStream file = Files.newOutputStream(part);
					ExecWatch exec = holder.inContainer(MasterPod.CONTAINER).writingOutput(file).writingError(errors)
							.exec("sh", "-c", "if [ -d \"$1\" ]; then echo \"$1 is a directory (tar it first)\" >&2; exit 3; fi; "
									+ "exec cat -- \"$1\"", "fiber-cp", inside)) {
				check(exec, errors, "reading " + inside);
			}
			Files.move(part, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
			return Files.size(target);
		}
		finally {
			Files.deleteIfExists(part);
		}
	}

	private void check(ExecWatch exec, ByteArrayOutputStream errors, String what) throws Exception {
		Integer code;
		try {
			code = exec.exitCode().get(timeoutSeconds, TimeUnit.SECONDS);
		}
		catch (TimeoutException e) {
			throw new CliException(what + " did not finish within " + timeoutSeconds + " s");
		}
		if (code == null || code != 0) {
			String said = errors.toString(StandardCharsets.UTF_8).trim();
			throw new CliException(what + " failed (exit code " + code + ")" + (said.isEmpty() ? "" : ": " + said));
		}
	}
}
