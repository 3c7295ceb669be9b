package io.fiberjvm.k8s.cli;

import java.nio.file.Files;
import java.nio.file.Path;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** Which cluster and namespace a command talks to; every command takes these options. */
final class ClusterOptions {

	@Option(names = "--kubeconfig", paramLabel = "FILE",
			description = "Kubeconfig file; default: the pod's service account inside a cluster, else $KUBECONFIG or ~/.kube/config.")
	@Nullable Path kubeconfig;

	@Option(names = {"-n", "--namespace"}, paramLabel = "NAMESPACE",
			description = "Namespace; default: the kubeconfig's, else default.")
	@Nullable String namespace;

	/** The API server the last client was made for, for messages. */
	@Nullable String masterUrl;

	/** A client for the chosen cluster; nothing is sent until it is used. */
	KubernetesClient connect() {
		Config config;
		if (kubeconfig == null) {
			config = Config.autoConfigure(null);
		}
		else {
			if (!Files.isReadable(kubeconfig)) {
				throw new CliException("--kubeconfig " + kubeconfig + ": no such readable file");
			}
			String text;
			try {
				text = Files.readString(kubeconfig);
				config = text.isBlank() ? null : Config.fromKubeconfig(text);
			}
			catch (java.io.IOException | RuntimeException e) {
				throw new CliException("--kubeconfig " + kubeconfig + " is not a kubeconfig (" + e.getClass().getSimpleName() + ")");
			}
			if (config == null || config.getMasterUrl() == null) {
				throw new CliException("--kubeconfig " + kubeconfig + " is not a kubeconfig (it names no cluster)");
			}
		}
		// A person waits at the terminal: a cluster that is not there is said at once, not after minutes of retries.
		config.setRequestRetryBackoffLimit(1);
		config.setRequestRetryBackoffInterval(200);
		masterUrl = config.getMasterUrl();
		return new KubernetesClientBuilder().withConfig(config).build();
	}

	String namespace(KubernetesClient client) {
		if (namespace != null && !namespace.isBlank()) {
			return namespace;
		}
		return client.getNamespace() != null ? client.getNamespace() : "default";
	}
}
