package io.fiberjvm.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One column of the fast-path table (Python Fiber, multiprocessing, this project): each metric's values, one per
 * timed run, what ran, and why a probe gave nothing.
 *
 * <p>The contract: a metric is named {@code probe/metric} ({@code queue-echo/p50_us}); a probe is either measured
 * (its metrics have values) or missing with a reason, never silently absent. Not thread-safe: one harness thread fills it.
 */
final class FastPathColumn {

	private final String name;
	private final Map<String, List<Double>> values = new LinkedHashMap<>();
	private final Map<String, String> missing = new LinkedHashMap<>();
	private final List<String> abouts = new ArrayList<>();

	FastPathColumn(String name) {
		this.name = Objects.requireNonNull(name, "name");
	}

	String name() {
		return name;
	}

	/** Adds one run's value of {@code probe/metric}. */
	void add(String probe, String metric, double value) {
		values.computeIfAbsent(probe + "/" + metric, key -> new ArrayList<>()).add(value);
	}

	/** Records why {@code probe} has no values in this column. */
	void missing(String probe, String reason) {
		missing.put(Objects.requireNonNull(probe, "probe"), Objects.requireNonNull(reason, "reason"));
	}

	/** Records what ran ("queue-echo: python 3.11.7, Python Fiber 0.2.1, local backend, 3 runs"), once per text. */
	void about(String text) {
		if (!text.isBlank() && !abouts.contains(text)) {
			abouts.add(text);
		}
	}

	/** The values of {@code probe/metric}, empty when the probe is missing. */
	List<Double> values(String key) {
		return values.getOrDefault(key, List.of());
	}

	/** Why {@code probe} has no values, or null when it was measured. */
	String missingReason(String probe) {
		return missing.get(probe);
	}

	Map<String, String> missing() {
		return missing;
	}

	List<String> abouts() {
		return abouts;
	}
}
