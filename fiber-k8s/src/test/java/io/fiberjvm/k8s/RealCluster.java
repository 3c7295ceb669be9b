package io.fiberjvm.k8s;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A real single-node Kubernetes cluster on this machine: etcd, kube-apiserver, controller manager, scheduler and a
 * kubelet running pods in containers with containerd and runc on a CNI bridge, all in a private mount and network
 * namespace, with the test JVM's classpath as an image its pods run.
 *
 * <p>{@code src/test/k8s/real-cluster/up.sh} brings it up (the build runs its cached stages first) with a link
 * between this machine and the cluster's network: a program outside the cluster listens on {@link #HOST_ADDRESS} for its
 * pods. One cluster serves every test of a run; {@code down.sh} takes it down when the run ends (JUnit closes what its
 * root store holds). A test method or constructor takes a {@code RealCluster} parameter under
 * {@code @ExtendWith(RealCluster.Resolver.class)}.
 */
public final class RealCluster implements AutoCloseable {

	/** This machine's address on the cluster's network. */
	public static final String HOST_ADDRESS = "172.31.251.1";
	/** The image of the test JVM's classpath, in the cluster's containerd. */
	public static final String IMAGE = "fiber.local/tests:1";
	/** Where the cluster's API server is seen from its pods: the address of its Service. */
	public static final String IN_CLUSTER_API = "10.96.0.1";

	private static final Duration UP_TIMEOUT = Duration.ofMinutes(20);
	private static final AtomicInteger NAMESPACES = new AtomicInteger();

	private final Path scripts;
	private final Path logs;
	private final Path kubeconfig;
	private final KubernetesClient client;

	private RealCluster(Path scripts, Path logs) throws Exception {
		this.scripts = scripts;
		this.logs = logs;
		Files.createDirectories(logs);
		Path home = Path.of(System.getenv().getOrDefault("K8S_REAL_HOME", System.getProperty("user.home") + "/.cache/fiber-k8s-real"));
		kubeconfig = home.resolve("etc/admin-host.kubeconfig");
		KubernetesClient made = null;
		try {
			run("up.sh", UP_TIMEOUT);
			made = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build();
			Path image = logs.resolve("tests-image.tar");
			ClasspathImage.build(home.resolve("cache/images/jre.tar"), IMAGE, ClasspathImage.ownClasspath(), image, logs.resolve("jib"));
			run("import.sh", Duration.ofMinutes(5), image.toString());
			Files.delete(image);
		}
		catch (Exception | Error e) {
			// Half up is taken down: nothing of it outlives the run.
			if (made != null) {
				made.close();
			}
			run("down.sh", Duration.ofMinutes(3));
			throw e;
		}
		client = made;
	}

	/** Brings a cluster up for a harness outside JUnit; close it when done. */
	public static RealCluster start(Path logs) throws Exception {
		return new RealCluster(scripts(), logs);
	}

	/** The recipe's scripts: named by the build, else found from the module's directory. */
	private static Path scripts() {
		String named = System.getProperty("real-cluster.scripts");
		if (named != null) {
			return Path.of(named);
		}
		for (Path candidate : List.of(Path.of("src/test/k8s/real-cluster"), Path.of("../fiber-k8s/src/test/k8s/real-cluster"),
				Path.of("fiber-k8s/src/test/k8s/real-cluster"))) {
			if (Files.isRegularFile(candidate.resolve("up.sh"))) {
				return candidate.toAbsolutePath().normalize();
			}
		}
		throw new IllegalStateException("no real-cluster scripts: set -Dreal-cluster.scripts to fiber-k8s/src/test/k8s/real-cluster");
	}

	private void run(String script, Duration timeout, String... args) throws IOException, InterruptedException {
		Path log = logs.resolve(script.replace(".sh", ".log"));
		List<String> command = new java.util.ArrayList<>(List.of("bash", scripts.resolve(script).toString()));
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		// A program outside the cluster (this JVM) serves its pods: the cluster's network needs a link to this machine.
		builder.environment().put("HOST_LINK", "1");
		Process process = builder.start();
		if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new IllegalStateException(script + " took longer than " + timeout + "; its output is in " + log);
		}
		if (process.exitValue() != 0) {
			List<String> lines = Files.readAllLines(log);
			throw new IllegalStateException(script + " failed with " + process.exitValue() + "; it ended with:\n"
					+ String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size())));
		}
	}

	/** Resolves {@link RealCluster} parameters with the run's one cluster. */
	public static final class Resolver implements ParameterResolver {

		@Override
		public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
			return parameter.getParameter().getType() == RealCluster.class;
		}

		@Override
		public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
			return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
					.getOrComputeIfAbsent(RealCluster.class, type -> {
						try {
							return new RealCluster(scripts(), Path.of("target", "real-cluster").toAbsolutePath());
						}
						catch (Exception e) {
							throw new IllegalStateException("the real cluster did not come up: " + e, e);
						}
					}, RealCluster.class);
		}
	}

	/** A client with the cluster administrator's rights. */
	public KubernetesClient client() {
		return client;
	}

	/** The administrator's kubeconfig file, for this machine. */
	public Path kubeconfig() {
		return kubeconfig;
	}

	/** Imports an image tarball (as {@code docker save} and Jib's {@code buildTar} write them) into the node's containerd. */
	public void importImage(Path tarball) {
		try {
			run("import.sh", Duration.ofMinutes(5), tarball.toAbsolutePath().toString());
		}
		catch (IOException e) {
			throw new IllegalStateException("import.sh could not run: " + e, e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while importing " + tarball, e);
		}
	}

	/** A new namespace. */
	public String namespace(String prefix) {
		String name = (prefix + "-" + NAMESPACES.incrementAndGet()).toLowerCase(Locale.ROOT);
		client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
		return name;
	}

	@Override
	public void close() {
		try {
			client.close();
			run("down.sh", Duration.ofMinutes(3));
		}
		catch (IOException e) {
			throw new IllegalStateException("down.sh could not run: " + e, e);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}
}
