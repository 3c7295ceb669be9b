package io.fiberjvm.k8s;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/fiber} as a user runs it: the script, the shaded jar the build made (its services merged,
 * so fabric8 finds its HTTP client), against the real API server.
 */
@ExtendWith(TestCluster.Resolver.class)
class CommandLineJarTest {

	/** What one run of bin/fiber printed and how it exited. */
	private record Outcome(int code, String output) {
	}

	private static Outcome fiber(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>();
		command.add(Path.of("..", "bin", "fiber").toString());
		command.addAll(List.of(args));
		ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
		builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
		Process process = builder.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		if (!process.waitFor(120, TimeUnit.SECONDS)) {
			process.destroyForcibly();
			throw new AssertionError("bin/fiber " + String.join(" ", args) + " did not end: " + output);
		}
		return new Outcome(process.exitValue(), output);
	}

	@Test
	void theScriptRunsAProgramOnTheCluster(TestCluster cluster) throws Exception {
		String ns = cluster.servedNamespace("jar");
		Outcome help = fiber("--help");
		assertThat(help.code()).isZero();
		assertThat(help.output()).contains("Usage: fiber", "run", "ps", "logs", "cp");

		Outcome run = fiber("run", "--kubeconfig", cluster.kubeconfig().toString(), "-n", ns, "--image", "app:1",
				"--name", "from-jar", "--attach", "--", "sh", "-c", "echo hello from the jar; exit 3");
		assertThat(run.output()).contains("pod/from-jar created", "hello from the jar").doesNotContain("SLF4J");
		assertThat(run.code()).isEqualTo(3);
		Outcome ps = fiber("ps", "--kubeconfig", cluster.kubeconfig().toString(), "-n", ns);
		assertThat(ps.output()).containsPattern("from-jar +master +- +failed +3");
		cluster.client().pods().inNamespace(ns).withName("from-jar").withGracePeriod(0).delete();
	}
}
