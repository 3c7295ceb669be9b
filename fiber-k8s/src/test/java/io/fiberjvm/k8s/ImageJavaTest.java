package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import io.fiberjvm.backend.JobJava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which java and classpath a job pod's JVM starts with, from inside a pod and from outside the cluster. */
class ImageJavaTest {

	private static final JobJava LAPTOP = new JobJava("/home/me/jdk-17/bin/java", "/home/me/app/target/classes:/home/me/.m2/x.jar");

	private static JobJava jobJava(String podName, String java, String classpath) {
		return jobJava(podName, "", java, classpath);
	}

	private static JobJava jobJava(String podName, String image, String java, String classpath) {
		KubernetesSettings settings = new KubernetesSettings("ns", image, List.of(), podName, Duration.ofSeconds(1))
				.withImageJava(java, classpath);
		// The client is never used: no job is made.
		try (KubernetesBackend backend = new KubernetesBackend(new KubernetesClientBuilder()
				.withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build(), true, settings)) {
			return backend.jobJava(LAPTOP);
		}
	}

	@Test
	void fromOutsideTheClusterJobsUseTheImagesJavaAndJibsClasspathNotTheLaptops() {
		assertThat(jobJava("", "", "")).isEqualTo(new JobJava("java", "@/app/jib-classpath-file"));
	}

	@Test
	void fromAPodJobsUseTheParentsOwnForTheirImageIsTheParents() {
		assertThat(jobJava("master-1", "", "")).isEqualTo(LAPTOP);
	}

	@Test
	void fromAPodWhoseJobsRunAnotherImageJobsUseThatImagesDefaults() {
		assertThat(jobJava("master-1", "trainer:7", "", "")).isEqualTo(new JobJava("java", "@/app/jib-classpath-file"));
	}

	@Test
	void theKeysNameThemWhenTheyDiffer() {
		assertThat(jobJava("", "/opt/jre/bin/java", "/srv/app/*")).isEqualTo(new JobJava("/opt/jre/bin/java", "/srv/app/*"));
		assertThat(jobJava("master-1", "", "/srv/app/*")).isEqualTo(new JobJava(LAPTOP.executable(), "/srv/app/*"));
	}

	@Test
	void aBlankJavaOrClasspathIsRefusedSayingWhatToGive() {
		assertThatThrownBy(() -> new JobJava(" ", "/a.jar")).hasMessageContaining("java executable is blank");
		assertThatThrownBy(() -> new JobJava("java", "")).hasMessageContaining("classpath is blank");
	}
}
