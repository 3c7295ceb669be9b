package io.fiberjvm.k8s;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberException;
import io.fiberjvm.backend.RunStatus;

/**
 * A run's status kept in its ConfigMap ({@link RunStatusMap}) for {@code fiber ps}: the first publish creates it,
 * later ones replace its data, and deleting it waits for a publish under way. A lock of its own, so a slow API
 * call here holds up nothing but another publish.
 */
final class RunStatusPublisher {

	private final Supplier<KubernetesClient> client;
	private final String namespace;
	/** The pod that owns the ConfigMap, or null outside a cluster. */
	private final Supplier<@Nullable Pod> owner;
	/** The ConfigMap's name once made. */
	private @Nullable String statusMapName;

	RunStatusPublisher(Supplier<KubernetesClient> client, String namespace, Supplier<@Nullable Pod> owner) {
		this.client = client;
		this.namespace = namespace;
		this.owner = owner;
	}

	/** Publishes {@code status} when {@code allowed} says so, checked under the lock. */
	synchronized void publish(RunStatus status, BooleanSupplier allowed) {
		if (allowed.getAsBoolean()) {
			write(status);
		}
	}

	/** Deletes the ConfigMap if one was made; what could not be deleted, or null. */
	synchronized @Nullable String delete() {
		if (statusMapName == null) {
			return null;
		}
		try {
			client.get().configMaps().inNamespace(namespace).withName(statusMapName).delete();
			return null;
		}
		catch (KubernetesClientException e) {
			return "ConfigMap " + statusMapName + ": " + KubernetesBackend.describe(e);
		}
	}

	private void write(RunStatus status) {
		ConfigMap map = RunStatusMap.of(namespace, status, owner.get());
		try {
			boolean created = statusMapName == null && create(map, status);
			if (!created) {
				// Made already (by this run: one taken over after a create that timed out still holds an older status).
				client.get().configMaps().inNamespace(namespace).withName(map.getMetadata().getName())
						.patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
								map);
			}
			statusMapName = map.getMetadata().getName();
		}
		catch (KubernetesClientException e) {
			throw new FiberException("the Kubernetes API refused the run's status ConfigMap " + map.getMetadata().getName()
					+ " in namespace " + namespace + ": " + KubernetesBackend.describe(e), e);
		}
	}

	/**
	 * Creates the status ConfigMap, or finds it made already: one holding this run's status (an earlier
	 * create that timed out after the server made it) is taken over (false), another is refused.
	 */
	private boolean create(ConfigMap map, RunStatus status) {
		try {
			client.get().configMaps().inNamespace(namespace).resource(map).create();
			return true;
		}
		catch (KubernetesClientException e) {
			if (e.getCode() != 409) {
				throw e;
			}
			ConfigMap there = client.get().configMaps().inNamespace(namespace)
					.withName(map.getMetadata().getName()).get();
			RunStatus held;
			try {
				held = there == null ? null : RunStatusMap.read(there);
			}
			catch (IllegalArgumentException unreadable) {
				held = null;
			}
			if (held == null || !held.started().equals(status.started()) || held.pid() != status.pid()) {
				throw new FiberException("a ConfigMap named " + map.getMetadata().getName() + " already exists in namespace "
						+ namespace + " but this run did not make it (left by an earlier run?); delete it so that "
						+ "fiber ps shows this run's pools", e);
			}
			return false;
		}
	}
}
