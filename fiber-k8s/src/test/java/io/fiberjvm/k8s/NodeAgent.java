package io.fiberjvm.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
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
 * then SIGKILL after the pod's grace period) and then removes the pod, and serves container logs to the
 * API server over HTTPS the way a kubelet does. Images and volumes are not emulated: every "container"
 * shares this machine's file system. It serves namespaces whose name starts with {@value #SERVED_PREFIX}
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
	private final HttpsServer kubeletApi;
	private SharedIndexInformer<Pod> informer;

	/** A pod's process and its output file. */
	private record RunningPod(Process process, Path log) {
	}

	NodeAgent(KubernetesClient client, String nodeName, Path dir) throws Exception {
		this.client = client;
		this.nodeName = nodeName;
		this.dir = Files.createDirectories(dir);
		this.kubeletApi = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
		kubeletApi.setHttpsConfigurator(new HttpsConfigurator(selfSignedTls(dir)));
		kubeletApi.createContext("/containerLogs/", this::serveLogs);
		kubeletApi.setExecutor(Executors.newCachedThreadPool(r -> {
			Thread t = new Thread(r, "node-agent-logs");
			t.setDaemon(true);
			return t;
		}));
	}

	NodeAgent start() {
		kubeletApi.start();
		client.nodes().resource(new NodeBuilder().withNewMetadata().withName(nodeName).endMetadata().build()).create();
		client.nodes().withName(nodeName).editStatus(node -> new NodeBuilder(node).withNewStatus()
				.addNewAddress().withType("InternalIP").withAddress("127.0.0.1").endAddress()
				.withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(kubeletApi.getAddress().getPort()).endKubeletEndpoint()
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
		ProcessBuilder builder = new ProcessBuilder(command);
		Map<String, String> env = builder.environment();
		// A container sees its own environment, not the test's configuration.
		env.keySet().removeIf(name -> name.startsWith("FIBER_") || name.startsWith("KUBERNETES_"));
		env.put("HOSTNAME", pod.getMetadata().getName());
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
			builder.redirectErrorStream(true).redirectOutput(log.toFile());
			process = builder.start();
		}
		catch (IOException | RuntimeException e) {
			setStatus(pod, p -> waiting(p, container.getName(), "RunContainerError", e.getMessage()));
			return;
		}
		running.put(key(pod), new RunningPod(process, log));
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
		process.onExit().thenRun(() -> events.execute(() -> exited(pod, container, process, started)));
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
		if (variable.getValueFrom().getSecretKeyRef() == null) {
			throw new IllegalStateException("only secretKeyRef is supported, not " + variable.getValueFrom());
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

	/** {@code GET /containerLogs/{namespace}/{pod}/{container}[?follow=true]}, as the API server asks a kubelet. */
	private void serveLogs(HttpExchange exchange) throws IOException {
		String[] parts = exchange.getRequestURI().getPath().split("/");
		String query = exchange.getRequestURI().getQuery();
		boolean follow = query != null && query.contains("follow=true");
		RunningPod pod = parts.length >= 4 ? running.get(parts[2] + "/" + parts[3]) : null;
		if (pod == null) {
			exchange.sendResponseHeaders(404, -1);
			exchange.close();
			return;
		}
		exchange.getResponseHeaders().set("Content-Type", "text/plain");
		exchange.sendResponseHeaders(200, 0);
		try (OutputStream out = exchange.getResponseBody(); InputStream in = Files.newInputStream(pod.log())) {
			byte[] buffer = new byte[8192];
			while (true) {
				int n = in.read(buffer);
				if (n > 0) {
					out.write(buffer, 0, n);
					out.flush();
					continue;
				}
				if (!follow || !pod.process().isAlive()) {
					// One last read after the exit, then the stream ends.
					while ((n = in.read(buffer)) > 0) {
						out.write(buffer, 0, n);
					}
					return;
				}
				try {
					pod.process().waitFor(50, TimeUnit.MILLISECONDS);
				}
				catch (InterruptedException e) {
					Thread.currentThread().interrupt();
					return;
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

	/** A key pair for the kubelet API, made by the JDK's keytool; the API server does not check it. */
	private static SSLContext selfSignedTls(Path dir) throws Exception {
		Path store = dir.resolve("kubelet.p12");
		Files.deleteIfExists(store);
		Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
		Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "kubelet", "-keyalg", "EC",
				"-groupname", "secp256r1", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1", "-validity", "2",
				"-keystore", store.toString(), "-storetype", "PKCS12", "-storepass", "node-agent", "-keypass", "node-agent")
				.redirectErrorStream(true).start();
		String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (p.waitFor() != 0) {
			throw new IllegalStateException("keytool failed: " + output);
		}
		KeyStore keys = KeyStore.getInstance("PKCS12");
		try (InputStream in = Files.newInputStream(store)) {
			keys.load(in, "node-agent".toCharArray());
		}
		KeyManagerFactory managers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
		managers.init(keys, "node-agent".toCharArray());
		SSLContext tls = SSLContext.getInstance("TLS");
		tls.init(managers.getKeyManagers(), null, null);
		return tls;
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
		kubeletApi.stop(0);
		try {
			client.nodes().withName(nodeName).delete();
		}
		catch (KubernetesClientException e) {
			// the API server may already be gone
		}
	}
}
