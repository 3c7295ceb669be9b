package io.fiberjvm.k8s;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import org.jspecify.annotations.Nullable;

import io.fiberjvm.backend.RunStatus;

/**
 * The ConfigMap a program's runtime keeps its run's status in while it has pods, for {@code fiber ps}:
 * its processes, pools and their workers as JSON under {@value #DATA_KEY}. One per run, labelled with the
 * run and {@value #LABEL}, owned by the parent pod when there is one, so it goes when the parent goes.
 */
public final class RunStatusMap {

	/** The label every status ConfigMap carries, which {@code fiber ps} selects on. */
	public static final String LABEL = "fiber-status";

	/** The data key holding the status's JSON. */
	public static final String DATA_KEY = "status.json";

	/** The data key saying ("true") that the pools' worker lists were left out. */
	public static final String WORKERS_OMITTED_KEY = "workers-omitted";

	/** Well under the API's 1 MiB for an object: a longer status is kept without its worker lists. */
	static final int LIMIT = 900 * 1024;

	private RunStatusMap() {
	}

	/** The ConfigMap's name for {@code runId}. */
	static String name(String runId) {
		return "fiber-status-" + Objects.requireNonNull(runId, "runId");
	}

	static ConfigMap of(String namespace, RunStatus status, @Nullable Pod parent) {
		byte[] json = status.toJson();
		boolean omitted = json.length > LIMIT;
		if (omitted) {
			json = status.withoutWorkers().toJson();
		}
		Map<String, String> labels = new LinkedHashMap<>();
		labels.put("fiber-run", status.run());
		labels.put(LABEL, "true");
		if (parent != null) {
			labels.put("fiber-parent", parent.getMetadata().getName());
		}
		ConfigMapBuilder builder = new ConfigMapBuilder()
				.withNewMetadata().withName(name(status.run())).withNamespace(namespace).withLabels(labels).endMetadata()
				.withData(Map.of(DATA_KEY, new String(json, StandardCharsets.UTF_8), WORKERS_OMITTED_KEY, Boolean.toString(omitted)));
		if (parent != null) {
			builder.editMetadata().addToOwnerReferences(PodTemplate.ownerReference(parent)).endMetadata();
		}
		return builder.build();
	}

	/** Whether the status a ConfigMap holds was kept without its pools' worker lists. */
	public static boolean workersOmitted(ConfigMap map) {
		return map.getData() != null && "true".equals(map.getData().get(WORKERS_OMITTED_KEY));
	}

	/** The status a ConfigMap holds; fails naming the ConfigMap when it holds none. */
	public static RunStatus read(ConfigMap map) {
		String json = map.getData() == null ? null : map.getData().get(DATA_KEY);
		if (json == null) {
			throw new IllegalArgumentException("ConfigMap " + map.getMetadata().getName() + " holds no " + DATA_KEY);
		}
		try {
			return RunStatus.fromJson(json.getBytes(StandardCharsets.UTF_8));
		}
		catch (RuntimeException e) {
			throw new IllegalArgumentException("ConfigMap " + map.getMetadata().getName() + ": " + e.getMessage(), e);
		}
	}
}
