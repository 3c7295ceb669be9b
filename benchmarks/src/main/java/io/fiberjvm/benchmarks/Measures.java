package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Small sums the harnesses share: the median of their rounds, and a process's memory as {@code /proc} says. */
final class Measures {

	private Measures() {
	}

	/** The middle value of {@code values} once sorted (the upper one of an even count). */
	static double median(List<Double> values) {
		List<Double> sorted = new ArrayList<>(values);
		sorted.sort(null);
		return sorted.get(sorted.size() / 2);
	}

	/** The kibibytes {@code field} ({@code "VmRSS:"}, {@code "VmHWM:"}) of {@code /proc/<pid>/status} says, or -1 without it. */
	static long procStatusKiB(long pid, String field) throws IOException {
		for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
			if (line.startsWith(field)) {
				return Long.parseLong(line.replaceAll("\\D", ""));
			}
		}
		return -1;
	}
}
