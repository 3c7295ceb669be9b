package io.fiberjvm.k8s;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;


import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * The kubelet the tests need, since there is no container runtime here: it binds every unscheduled pod
 * to its node, runs each pod's container command as a local process with the pod's environment (a
 * {@code secretKeyRef} resolved from its Secret), reports Pending → Running → Succeeded/Failed with the
 * exit code through the pod's status subresource, stops the process when the pod is deleted (SIGTERM,
 * then SIGKILL after the pod's grace period) and then removes the pod, and serves container logs and exec
 * to the API server the way a kubelet does ({@link KubeletApi}). A pod's persistent volume claims are
 * directories of this agent, bind-mounted at their mount paths in a mount namespace of the pod's own
 * ({@code unshare}); exec enters it ({@code nsenter}). Images are not emulated: every "container" runs
 * this machine's programs. It serves namespaces whose name starts with {@value #SERVED_PREFIX}
 * only, so tests that want pods left unscheduled use other namespaces.
 */
final class NodeAgent implements AutoCloseable {

	static final String SERVED_PREFIX = "node-";

	private final KubernetesClient client;
	private final String nodeName;
	private final Path dir;
	private final ExecutorService events = Executors.newSingleThreadExecutor(r -> new Thread(r, "node-agent"));
	private final Map<String, RunningPod> running = new ConcurrentHashMap<>();
	private final java.util.Set<String> stopping = ConcurrentHashMap.newKeySet();
	private final KubeletApi kubeletApi;
	/** Mount points this agent made on the host, removed again (when empty) on close. */
	private final List<Path> mountPoints = new java.util.concurrent.CopyOnWriteArrayList<>();
	private SharedIndexInformer<Pod> informer;

	/**
	 * A pod's process, its output file and environment, and whether it runs in a mount namespace of
	 * its own (where the pod's claims are bind-mounted).
	 */
	record RunningPod(Process process, Path log, Map<String, String> environment, boolean ownMounts) {

		/** {@code command} as it runs inside this pod: in its mount namespace, so it sees the pod's claims. */
		List<String> enter(List<String> command) {
			if (!ownMounts) {
				return command;
			}
			List<String> entered = new ArrayList<>(List.of("nsenter", "--target", Long.toString(process.pid()), "--mount", "--"));
			entered.addAll(command);
			return entered;
		}
	}

	NodeAgent(KubernetesClient client, String nodeName, Path dir) throws Exception {
		this.client = client;
		this.nodeName = nodeName;
		this.dir = Files.createDirectories(dir);
		this.kubeletApi = new KubeletApi((namespace, pod) -> running.get(namespace + "/" + pod), this.dir);
	}

	NodeAgent start() {
		client.nodes().resource(new NodeBuilder().withNewMetadata().withName(nodeName).endMetadata().build()).create();
		client.nodes().withName(nodeName).editStatus(node -> new NodeBuilder(node).withNewStatus()
				.addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
				.withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(kubeletApi.port()).endKubeletEndpoint()
				.endDaemonEndpoints()
				.addNewCondition().withType("Ready").withStatus("True").endCondition()
				.endStatus().build());
		informer = client.pods().inAnyNamespace().inform(new ResourceEventHandler<>() {
			@Override
			public void onAdd(Pod pod) {
				events.execute(() -> handle(pod));
			}

			@Override
			public void onUpdate(Pod before, Pod pod) {
				events.execute(() -> handle(pod));
			}

			@Override
			public void onDelete(Pod pod, boolean finalStateUnknown) {
				events.execute(() -> {
					stopping.remove(key(pod));
					RunningPod gone = running.remove(key(pod));
					if (gone != null) {
						killTree(gone.process(), true);
					}
				});
			}
		}, 0);
		return this;
	}

	/** Processes still running. */
	int runningPods() {
		return (int) running.values().stream().filter(p -> p.process().isAlive()).count();
	}

	private void handle(Pod pod) {
		if (!pod.getMetadata().getNamespace().startsWith(SERVED_PREFIX)) {
			return;
		}
		try {
			String node = pod.getSpec().getNodeName();
			boolean deleting = pod.getMetadata().getDeletionTimestamp() != null;
			if (node == null || node.isEmpty()) {
				if (!deleting) {
					bind(pod);
				}
				return;
			}
			if (!node.equals(nodeName)) {
				return;
			}
			RunningPod process = running.get(key(pod));
			String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
			if (deleting) {
				if (process != null && process.process().isAlive()) {
					if (stopping.add(key(pod))) {
						stop(pod, process);
					}
				}
				else if (process == null || !process.process().isAlive()) {
					remove(pod);
				}
				return;
			}
			if (process == null && (phase == null || phase.equals("Pending"))) {
				run(pod);
			}
		}
		catch (KubernetesClientException e) {
			if (e.getCode() != 404) {
				System.err.println("node agent: " + e);
			}
		}
	}

	private void bind(Pod pod) {
		client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(new BindingBuilder()
				.withNewMetadata().withName(pod.getMetadata().getName()).endMetadata()
				.withNewTarget().withApiVersion("v1").withKind("Node").withName(nodeName).endTarget()
				.build()).create();
	}

	private void run(Pod pod) {
		Container container = pod.getSpec().getContainers().get(0);
		List<String> command = new ArrayList<>();
		if (container.getCommand() != null) {
			command.addAll(container.getCommand());
		}
		if (container.getArgs() != null) {
			command.addAll(container.getArgs());
		}
		List<String[]> mounts;
		try {
			mounts = claimMounts(pod, container);
			serviceAccountMount(pod).ifPresent(mounts::add);
		}
		catch (IllegalStateException e) {
			setStatus(pod, p -> waiting(p, container.getName(), "ContainerCreating", e.getMessage()));
			return;
		}
		if (!mounts.isEmpty()) {
			// A mount namespace of its own, where each claim's directory is bind-mounted at its mount path;
			// the paths are arguments, never part of the script.
			String script = "while [ \"$1\" != -- ]; do mount --bind \"$1\" \"$2\" || exit 1; shift 2; done; shift; exec \"$@\"";
			List<String> wrapped = new ArrayList<>(List.of("unshare", "--mount", "--propagation", "private", "--", "sh", "-c",
					script, "pod"));
			for (String[] mount : mounts) {
				wrapped.add(mount[0]);
				wrapped.add(mount[1]);
			}
			wrapped.add("--");
			wrapped.addAll(command);
			command = wrapped;
		}
		ProcessBuilder builder = new ProcessBuilder(command);
		Map<String, String> env = builder.environment();
		// A container sees its own environment, not the test's configuration.
		env.keySet().removeIf(name -> name.startsWith("FIBER_") || name.startsWith("KUBERNETES_"));
		env.put("HOSTNAME", pod.getMetadata().getName());
		// Every pod learns where the API server is, as from the kubernetes Service.
		java.net.URI api = java.net.URI.create(client.getConfiguration().getMasterUrl());
		env.put("KUBERNETES_SERVICE_HOST", api.getHost());
		env.put("KUBERNETES_SERVICE_PORT", Integer.toString(api.getPort()));
		try {
			for (EnvVar variable : container.getEnv()) {
				env.put(variable.getName(), valueOf(pod, variable));
			}
		}
		catch (IllegalStateException e) {
			setStatus(pod, p -> waiting(p, container.getName(), "CreateContainerConfigError", e.getMessage()));
			return;
		}
		Path log = dir.resolve(key(pod).replace('/', '_') + ".log");
		Process process;
		try {
			builder.redirectErrorStream(true);
			process = builder.start();
		}
		catch (IOException | RuntimeException e) {
			setStatus(pod, p -> waiting(p, container.getName(), "RunContainerError", e.getMessage()));
			return;
		}
		Map<String, String> podEnv = new java.util.HashMap<>(env);
		running.put(key(pod), new RunningPod(process, log, podEnv, !mounts.isEmpty()));
		String started = Instant.now().toString();
		setStatus(pod, p -> {
			p.getStatus().setPhase("Running");
			p.getStatus().setPodIP("127.0.0.1");
			p.getStatus().setHostIP("127.0.0.1");
			p.getStatus().setStartTime(started);
			p.getStatus().setConditions(List.of(new PodConditionBuilder().withType("Ready").withStatus("True").build()));
			p.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName(container.getName())
					.withImage(container.getImage()).withImageID("").withReady(true).withRestartCount(0)
					.withNewState().withNewRunning().withStartedAt(started).endRunning().endState().build()));
			return p;
		});
		// The exit is reported once the output is all in the log (a child the container left behind may hold it open).
		CompletableFuture<Void> logged;
		try {
			logged = ContainerLog.capture(process.getInputStream(), log);
		}
		catch (IOException e) {
			process.destroyForcibly();
			setStatus(pod, p -> waiting(p, container.getName(), "RunContainerError", "cannot keep its log: " + e.getMessage()));
			return;
		}
		process.onExit().thenCompose(p -> logged.completeOnTimeout(null, 2, TimeUnit.SECONDS))
				.thenRun(() -> events.execute(() -> exited(pod, container, process, started)));
	}

	/**
	 * Claim directory → mount path for each of the container's claim volumes; the claim must exist.
	 * A claim's files live under this agent's directory, one directory per namespace and claim.
	 */
	private List<String[]> claimMounts(Pod pod, Container container) {
		List<String[]> mounts = new ArrayList<>();
		if (pod.getSpec().getVolumes() == null || container.getVolumeMounts() == null) {
			return mounts;
		}
		String namespace = pod.getMetadata().getNamespace();
		for (io.fabric8.kubernetes.api.model.VolumeMount mount : container.getVolumeMounts()) {
			io.fabric8.kubernetes.api.model.Volume volume = pod.getSpec().getVolumes().stream()
					.filter(v -> v.getName().equals(mount.getName())).findFirst().orElse(null);
			if (volume == null || volume.getPersistentVolumeClaim() == null) {
				continue;
			}
			String claim = volume.getPersistentVolumeClaim().getClaimName();
			if (client.persistentVolumeClaims().inNamespace(namespace).withName(claim).get() == null) {
				throw new IllegalStateException("persistentvolumeclaim \"" + claim + "\" not found");
			}
			try {
				Path data = Files.createDirectories(dir.resolve("claims").resolve(namespace).resolve(claim));
				Path point = Path.of(mount.getMountPath());
				makeMountPoint(point);
				mounts.add(new String[] {data.toString(), point.toString()});
			}
			catch (IOException e) {
				throw new IllegalStateException("cannot prepare claim " + claim + ": " + e.getMessage());
			}
		}
		return mounts;
	}

	/**
	 * For a pod whose service account exists: a token the API server issues for it, its CA and the
	 * namespace, mounted where a kubelet puts them, so a program finds the cluster by itself.
	 */
	private java.util.Optional<String[]> serviceAccountMount(Pod pod) {
		String account = pod.getSpec().getServiceAccountName();
		String namespace = pod.getMetadata().getNamespace();
		if (account == null || account.isEmpty()
				|| client.serviceAccounts().inNamespace(namespace).withName(account).get() == null) {
			return java.util.Optional.empty();
		}
		String token = client.serviceAccounts().inNamespace(namespace).withName(account)
				.tokenRequest(new io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder().withNewSpec()
						.withExpirationSeconds(3600L).endSpec().build())
				.getStatus().getToken();
		try {
			Path files = Files.createDirectories(dir.resolve("serviceaccounts").resolve(key(pod).replace('/', '_')));
			Files.writeString(files.resolve("token"), token);
			Files.writeString(files.resolve("namespace"), namespace);
			Files.copy(Path.of(client.getConfiguration().getCaCertFile()), files.resolve("ca.crt"),
					java.nio.file.StandardCopyOption.REPLACE_EXISTING);
			Path point = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");
			makeMountPoint(point);
			return java.util.Optional.of(new String[] {files.toString(), point.toString()});
		}
		catch (IOException e) {
			throw new IllegalStateException("cannot prepare the service account token: " + e.getMessage());
		}
	}

	/** Makes {@code point} (and its missing parents), remembering what it made so close() can remove it. */
	private void makeMountPoint(Path point) throws IOException {
		if (Files.isDirectory(point)) {
			return;
		}
		Path missing = point;
		List<Path> made = new ArrayList<>();
		while (missing != null && !Files.exists(missing)) {
			made.add(0, missing);
			missing = missing.getParent();
		}
		Files.createDirectories(point);
		mountPoints.addAll(made);
	}

	private void exited(Pod pod, Container container, Process process, String started) {
		int code = process.exitValue();
		setStatus(pod, p -> {
			p.getStatus().setPhase(code == 0 ? "Succeeded" : "Failed");
			p.getStatus().setConditions(List.of(new PodConditionBuilder().withType("Ready").withStatus("False").build()));
			p.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName(container.getName())
					.withImage(container.getImage()).withImageID("").withReady(false).withRestartCount(0)
					.withNewState().withNewTerminated().withExitCode(code).withReason(code == 0 ? "Completed" : "Error")
					.withStartedAt(started).withFinishedAt(Instant.now().toString()).endTerminated().endState().build()));
			return p;
		});
		Pod now = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
		if (now != null && now.getMetadata().getDeletionTimestamp() != null) {
			remove(now);
		}
	}

	/** SIGTERM now, SIGKILL once the grace period is over; the exit is reported, then the pod removed. */
	private void stop(Pod pod, RunningPod process) {
		killTree(process.process(), false);
		Long grace = pod.getMetadata().getDeletionGracePeriodSeconds();
		long seconds = grace == null ? 30 : grace;
		process.process().onExit().orTimeout(Math.max(0, seconds), TimeUnit.SECONDS)
				.exceptionally(timeout -> {
					killTree(process.process(), true);
					return null;
				});
	}

	private void remove(Pod pod) {
		client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName())
				.withGracePeriod(0).delete();
	}

	private String valueOf(Pod pod, EnvVar variable) {
		if (variable.getValueFrom() == null) {
			return variable.getValue() == null ? "" : variable.getValue();
		}
		if (variable.getValueFrom().getFieldRef() != null) {
			String field = variable.getValueFrom().getFieldRef().getFieldPath();
			return switch (field) {
				case "metadata.name" -> pod.getMetadata().getName();
				case "metadata.namespace" -> pod.getMetadata().getNamespace();
				case "status.podIP", "status.hostIP" -> "127.0.0.1";
				case "spec.serviceAccountName" -> pod.getSpec().getServiceAccountName() == null ? "" : pod.getSpec().getServiceAccountName();
				default -> throw new IllegalStateException("fieldRef " + field + " is not supported here");
			};
		}
		if (variable.getValueFrom().getSecretKeyRef() == null) {
			throw new IllegalStateException("only secretKeyRef and fieldRef are supported, not " + variable.getValueFrom());
		}
		String name = variable.getValueFrom().getSecretKeyRef().getName();
		String key = variable.getValueFrom().getSecretKeyRef().getKey();
		Secret secret = client.secrets().inNamespace(pod.getMetadata().getNamespace()).withName(name).get();
		if (secret == null || secret.getData() == null || !secret.getData().containsKey(key)) {
			throw new IllegalStateException("secret \"" + name + "\" (key " + key + ") not found");
		}
		return new String(Base64.getDecoder().decode(secret.getData().get(key)), StandardCharsets.UTF_8);
	}

	private static Pod waiting(Pod pod, String container, String reason, String message) {
		pod.getStatus().setContainerStatuses(List.of(new ContainerStatusBuilder().withName(container).withImage("")
				.withImageID("").withReady(false).withRestartCount(0)
				.withNewState().withNewWaiting().withReason(reason).withMessage(message).endWaiting().endState().build()));
		return pod;
	}

	/** Writes the status subresource, reading the pod again after a conflicting write. */
	private void setStatus(Pod pod, UnaryOperator<Pod> change) {
		for (int attempt = 0; attempt < 20; attempt++) {
			Pod fresh = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).get();
			if (fresh == null) {
				return;
			}
			if (fresh.getStatus() == null) {
				fresh.setStatus(new io.fabric8.kubernetes.api.model.PodStatus());
			}
			try {
				client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(change.apply(fresh)).updateStatus();
				return;
			}
			catch (KubernetesClientException e) {
				if (e.getCode() != 409) {
					throw e;
				}
			}
		}
	}

	private static void killTree(Process process, boolean forcibly) {
		List<ProcessHandle> tree = process.descendants().toList();
		if (forcibly) {
			process.destroyForcibly();
		}
		else {
			process.destroy();
		}
		tree.forEach(forcibly ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
	}

	private static String key(Pod pod) {
		return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
	}

	/** Cuts every log stream being served, as a connection lost between the API server and a kubelet does. */
	void breakLogStreams() {
		kubeletApi.breakLogStreams();
	}

	/** Kills every process, stops watching and serving, and removes the node. */
	@Override
	public void close() {
		if (informer != null) {
			informer.stop();
		}
		events.shutdownNow();
		running.values().forEach(p -> killTree(p.process(), true));
		for (RunningPod p : running.values()) {
			p.process().onExit().orTimeout(10, TimeUnit.SECONDS).exceptionally(e -> null).join();
		}
		kubeletApi.close();
		for (int i = mountPoints.size() - 1; i >= 0; i--) {
			try {
				Files.deleteIfExists(mountPoints.get(i));
			}
			catch (IOException notEmpty) {
				// something else put files there: leave it
			}
		}
		try {
			client.nodes().withName(nodeName).delete();
		}
		catch (KubernetesClientException e) {
			// the API server may already be gone
		}
	}
}
