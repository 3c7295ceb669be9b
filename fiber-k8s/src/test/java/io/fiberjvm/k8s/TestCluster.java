package io.fiberjvm.k8s;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

import io.fabric8.kubeapitest.KubeAPIServer;
import io.fabric8.kubeapitest.KubeAPIServerConfigBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One real kube-apiserver (v1.20.2) with etcd on loopback, its controller manager running the garbage
 * collector, and a {@link NodeAgent} as its only node,
 * shared by every test of the run and stopped when the run ends (JUnit closes what its root store holds): a test method or constructor takes a
 * {@code TestCluster} parameter under {@code @ExtendWith(TestCluster.Resolver.class)}.
 *
 * <p>The binaries come from {@code src/test/k8s/kube-apiserver.sh}, which the build runs first.
 *
 * <p>Pods here are not containers: {@link RealCluster} has a real kubelet, and the contracts, {@code fiber run} and
 * scheduling run there too. This cluster stays for what that kubelet cannot be made to do here (cut a log stream on
 * demand, mount claims with no storage provisioner) and for the tests of API calls that need no container.
 */
public final class TestCluster implements AutoCloseable {

	private static final AtomicInteger NAMESPACES = new AtomicInteger();

	private final KubeAPIServer server;
	private final Path kubeconfig;
	private final KubernetesClient client;
	private final NodeAgent agent;
	private final Process controllerManager;
	private final Path work;

	/** Starts a cluster of one's own, for a harness outside JUnit; close it when done. */
	public static TestCluster start() throws Exception {
		return new TestCluster();
	}

	private TestCluster() throws Exception {
		Path binaries = Path.of(System.getProperty("user.home"), ".cache", "fiber-k8s");
		String dir = System.getenv().getOrDefault("K8S_TEST_CACHE", binaries.toString());
		if (!Files.isExecutable(Path.of(dir, "k8s", "1.20.2-linux-amd64", "kube-apiserver"))
				|| !Files.isExecutable(Path.of(dir, "k8s", "1.20.2-linux-amd64", "kube-controller-manager"))) {
			throw new IllegalStateException("no kube-apiserver under " + dir + ": run fiber-k8s/src/test/k8s/kube-apiserver.sh first "
					+ "(the build and .ci/run do)");
		}
		server = new KubeAPIServer(KubeAPIServerConfigBuilder.anAPIServerConfig()
				.withTestDir(dir).withApiServerVersion("1.20.2").withOfflineMode(true)
				.withWaitForEtcdHealthCheckOnStartup(true).withStartupTimeout(120_000).build());
		server.start();
		work = Files.createTempDirectory("fiber-k8s-test");
		kubeconfig = work.resolve("kubeconfig");
		Files.writeString(kubeconfig, server.getKubeConfigYaml());
		client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(server.getKubeConfigYaml())).build();
		// The garbage collector, which deletes what an owner reference points from once the owner is gone.
		controllerManager = new ProcessBuilder(Path.of(dir, "k8s", "1.20.2-linux-amd64", "kube-controller-manager").toString(),
				"--kubeconfig=" + kubeconfig, "--controllers=garbagecollector", "--leader-elect=false",
				"--port=0", "--secure-port=0", "--use-service-account-credentials=false")
				.redirectErrorStream(true).redirectOutput(work.resolve("kube-controller-manager.log").toFile()).start();
		agent = new NodeAgent(client, "node-agent-0", work.resolve("node")).start();
	}

	/** Resolves {@link TestCluster} parameters with the run's one cluster. */
	public static final class Resolver implements ParameterResolver {

		@Override
		public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
			return parameter.getParameter().getType() == TestCluster.class;
		}

		@Override
		public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
			return context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
					.getOrComputeIfAbsent(TestCluster.class, type -> {
						try {
							return new TestCluster();
						}
						catch (Exception e) {
							throw new IllegalStateException("the test cluster did not start: " + e, e);
						}
					}, TestCluster.class);
		}
	}

	/** A client with the cluster administrator's rights. */
	public KubernetesClient client() {
		return client;
	}

	/** The administrator's kubeconfig file. */
	public Path kubeconfig() {
		return kubeconfig;
	}

	NodeAgent agent() {
		return agent;
	}

	/**
	 * A new namespace. Namespaces starting with {@value NodeAgent#SERVED_PREFIX} have their pods run by
	 * the node agent; others leave pods unscheduled.
	 */
	public String namespace(String prefix) {
		String name = (prefix + "-" + NAMESPACES.incrementAndGet()).toLowerCase(Locale.ROOT);
		client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
		return name;
	}

	/** A new namespace whose pods the node agent runs. */
	public String servedNamespace(String prefix) {
		return namespace(NodeAgent.SERVED_PREFIX + prefix);
	}

	@Override
	public void close() {
		try {
			agent.close();
			client.close();
		}
		finally {
			controllerManager.destroyForcibly();
			server.stop();
			deleteTree(work);
		}
	}

	private static void deleteTree(Path root) {
		try (var paths = Files.walk(root)) {
			paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
		}
		catch (java.io.IOException e) {
			// a temporary directory: what is left is left
		}
	}
}
