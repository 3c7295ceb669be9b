package io.fiberjvm.k8s;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.fiberjvm.FiberException;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.JobStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The role shipped in {@code src/main/k8s/rbac.yaml} is enough for the backend, and no more: a master
 * pod acting as the {@code fiber} service account (with a token the API server issues for it, RBAC on)
 * runs, watches, reads the logs of and deletes its jobs, keeps the run's status ConfigMap, but cannot read
 * Secrets or touch another namespace.
 */
@ExtendWith(TestCluster.Resolver.class)
class RbacTest {

	private static final Duration LIMIT = Duration.ofSeconds(60);

	@Test
	void theShippedRoleLetsTheMasterRunJobsAndNothingMore(TestCluster cluster) throws Exception {
		KubernetesClient admin = cluster.client();
		String ns = cluster.servedNamespace("rbac");
		String elsewhere = cluster.servedNamespace("rbac-other");
		try (InputStream yaml = Files.newInputStream(Path.of("src", "main", "k8s", "rbac.yaml"))) {
			admin.load(yaml).inNamespace(ns).create();
		}
		admin.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("master").endMetadata()
				.withNewSpec().withServiceAccountName("fiber").addNewContainer().withName("main").withImage("app:3")
				.withCommand("sh", "-c", "exec sleep 600").endContainer().endSpec().build()).create();
		String token = admin.serviceAccounts().inNamespace(ns).withName("fiber")
				.tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
				.getStatus().getToken();
		Config adminConfig = admin.getConfiguration();
		try (KubernetesClient master = new KubernetesClientBuilder().withConfig(new ConfigBuilder()
				.withMasterUrl(adminConfig.getMasterUrl()).withTrustCerts(true).withOauthToken(token).withNamespace(ns)
				.withRequestRetryBackoffLimit(0).build()).build()) {
			KubernetesBackend backend = new KubernetesBackend(master, false,
					new KubernetesSettings(ns, "", List.of(), "master", Duration.ofSeconds(2)));
			JobSpec spec = JobSpec.of("rbac-job-1", List.of("sh", "-c", "echo \"has secret: ${#" + JobSpec.SECRET_ENV + "}\""))
					.withEnvironment(java.util.Map.of(JobSpec.SECRET_ENV, "twelve-chars"))
					.withLabel("fiber-run", "rbac");
			Job job = backend.create(spec).block(LIMIT);
			assertThat(job.onTerminal().block(LIMIT).phase()).isEqualTo(JobStatus.Phase.SUCCEEDED);
			assertThat(job.logs().collectList().block(LIMIT)).containsExactly("has secret: 12");
			assertThat(admin.pods().inNamespace(ns).withName("rbac-job-1").get().getSpec().getServiceAccountName()).isEqualTo("fiber");
			Job sleeper = backend.create(JobSpec.of("rbac-job-2", List.of("sh", "-c", "exec sleep 600"))
					.withEnvironment(java.util.Map.of(JobSpec.SECRET_ENV, "twelve-chars")).withLabel("fiber-run", "rbac"))
					.block(LIMIT);
			sleeper.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);
			sleeper.terminate().block(LIMIT);
			// The run's status for fiber ps, kept in a ConfigMap the master pod owns.
			io.fiberjvm.backend.RunStatus status = new io.fiberjvm.backend.RunStatus("rbac", 1, "kubernetes", "2026-01-01T00:00:00Z", List.of(),
					List.of(new io.fiberjvm.backend.RunStatus.Pool("p", 1, 1, 1, List.of())));
			backend.publishStatus(status);
			backend.publishStatus(new io.fiberjvm.backend.RunStatus("rbac", 1, "kubernetes", "2026-01-01T00:00:00Z", List.of(), List.of()));
			var map = admin.configMaps().inNamespace(ns).withName(RunStatusMap.name("rbac")).get();
			assertThat(RunStatusMap.read(map).pools()).isEmpty();
			assertThat(map.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> assertThat(owner.getName()).isEqualTo("master"));

			// Nothing more: no Secret can be read, no other namespace touched.
			assertThatThrownBy(() -> master.secrets().inNamespace(ns).withName(RunSecret.name("rbac")).get())
					.isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(403));
			KubernetesBackend outside = new KubernetesBackend(master, false,
					new KubernetesSettings(elsewhere, "app:3", List.of(), "", Duration.ofSeconds(2)));
			assertThatThrownBy(() -> outside.create(JobSpec.of("rbac-job-3", List.of("true")).withLabel("fiber-run", "rbac2")
					.withEnvironment(java.util.Map.of(JobSpec.SECRET_ENV, "x"))).block(LIMIT))
					.isInstanceOf(FiberException.class).hasMessageContaining("forbidden").hasMessageContaining(elsewhere);
			outside.close();

			backend.close();
			await().atMost(LIMIT).until(() -> admin.pods().inNamespace(ns).withLabel(KubernetesBackend.BACKEND_LABEL).list()
					.getItems().isEmpty());
			assertThat(admin.secrets().inNamespace(ns).withName(RunSecret.name("rbac")).get()).isNull();
			assertThat(admin.configMaps().inNamespace(ns).withName(RunStatusMap.name("rbac")).get()).isNull();
		}
		finally {
			admin.pods().inNamespace(ns).withGracePeriod(0).delete();
		}
	}
}
