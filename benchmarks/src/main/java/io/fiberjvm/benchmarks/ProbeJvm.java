package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A fresh JVM on this JVM's java and class path, running one probe's main: what a harness times from a cold start. */
final class ProbeJvm {

	private ProbeJvm() {
	}

	/** Runs {@code probe} with {@code args} to its end; returns the last line it printed, or fails with all it printed. */
	static String lastLine(Class<?> probe, String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), probe.getName()));
		command.addAll(List.of(args));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
		if (process.waitFor() != 0) {
			throw new IllegalStateException(probe.getSimpleName() + " " + String.join(" ", args) + " failed: " + out);
		}
		String[] lines = out.split("\n");
		return lines[lines.length - 1].trim();
	}
}
