package io.fiberjvm.k8s;

import java.nio.file.Files;
import java.nio.file.Path;

import io.fabric8.kubernetes.client.Config;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.BackendProvider;
import io.fiberjvm.config.ConfigException;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

/**
 * Provides the {@link KubernetesBackend}: chosen by {@code backend=kubernetes}, and by itself inside a
 * cluster (where {@code KUBERNETES_SERVICE_HOST} is set), where it outranks the local backend.
 */
public final class KubernetesBackendProvider implements BackendProvider {

	@Override
	public String name() {
		return "kubernetes";
	}

	@Override
	public int priority() {
		return 10;
	}

	@Override
	public boolean isAvailable() {
		return inCluster();
	}

	private static boolean inCluster() {
		String host = System.getenv("KUBERNETES_SERVICE_HOST");
		return host != null && !host.isBlank();
	}

	@Override
	public Backend create(FiberConfig config) {
		Config clientConfig = clientConfig(config);
		String namespace = config.get(ConfigKeys.NAMESPACE);
		if (namespace.isEmpty()) {
			namespace = clientConfig.getNamespace() != null ? clientConfig.getNamespace() : "default";
		}
		String podName = config.get(ConfigKeys.POD_NAME);
		if (podName.isEmpty() && inCluster() && System.getenv("HOSTNAME") != null) {
			// A pod's host name is its name, unless set apart or cut at 63 characters: the pods this
			// backend and fiber run make set pod-name from the downward API instead.
			podName = System.getenv("HOSTNAME");
		}
		return new KubernetesBackend(clientConfig, new KubernetesSettings(namespace, config.get(ConfigKeys.IMAGE),
				config.get(ConfigKeys.VOLUMES), podName, config.get(ConfigKeys.TERMINATE_GRACE))
				.withImageJava(config.get(ConfigKeys.IMAGE_JAVA), config.get(ConfigKeys.IMAGE_CLASSPATH)));
	}

	/**
	 * The client configuration from the configured kubeconfig, else fabric8's usual lookup (service
	 * account, KUBECONFIG, ~/.kube/config); a kubeconfig that cannot be read is an error now.
	 */
	static Config clientConfig(FiberConfig config) {
		String kubeconfig = config.get(ConfigKeys.KUBECONFIG);
		if (kubeconfig.isEmpty()) {
			return Config.autoConfigure(null);
		}
		Path file = Path.of(kubeconfig);
		String text;
		try {
			text = Files.readString(file);
		}
		catch (java.io.IOException e) {
			throw new ConfigException(ConfigKeys.KUBECONFIG.name(), "configuration key 'kubeconfig' from "
					+ config.sourceOf(ConfigKeys.KUBECONFIG) + " names " + file + ", which cannot be read: " + e);
		}
		Config clientConfig;
		try {
			clientConfig = Config.fromKubeconfig(text);
		}
		catch (RuntimeException e) {
			throw new ConfigException(ConfigKeys.KUBECONFIG.name(), "configuration key 'kubeconfig' from "
					+ config.sourceOf(ConfigKeys.KUBECONFIG) + " names " + file + ", which is not a kubeconfig: " + e.getMessage());
		}
		return clientConfig;
	}
}
