package io.fiberjvm.k8s;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import org.jspecify.annotations.Nullable;

/**
 * The Kubernetes Secret that holds a run's secret for its pods, which read it through a
 * {@code secretKeyRef} ({@link PodTemplate#SECRET_KEY}): one per run, labelled with the run and owned
 * by the parent pod, so it goes when the parent goes.
 */
final class RunSecret {

	private RunSecret() {
	}

	/** The Secret's name for {@code runId}. */
	static String name(String runId) {
		return "fiber-run-" + Objects.requireNonNull(runId, "runId");
	}

	static Secret of(String namespace, String runId, String secret, @Nullable Pod parent) {
		Objects.requireNonNull(secret, "secret");
		SecretBuilder builder = new SecretBuilder()
				.withNewMetadata()
				.withName(name(runId))
				.withNamespace(namespace)
				.withLabels(Map.of("fiber-run", runId))
				.endMetadata()
				.withType("Opaque")
				.withData(Map.of(PodTemplate.SECRET_KEY, Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8))));
		if (parent != null) {
			builder.editMetadata().addToOwnerReferences(PodTemplate.ownerReference(parent)).endMetadata();
		}
		return builder.build();
	}
}
