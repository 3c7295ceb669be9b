package io.fiberjvm.benchmarks;

import java.util.List;

import io.fiberjvm.benchmarks.PoolOverheadHarness.Summary;

/**
 * What an executor in another process (Python's multiprocessing, Python Fiber, Spark) reported: one summary per
 * configuration and its self-description, or, when {@code skipped} is not null, why there is none.
 */
record ExternalColumn(String name, List<Summary> results, String about, String skipped) {

	/** The line a script prints, followed by the reason, instead of results when it cannot run its column. */
	static final String SKIP_LINE = "# skipped:";

	static ExternalColumn skipped(String name, String reason) {
		System.err.println(reason);
		return new ExternalColumn(name, List.of(), "", reason);
	}

	boolean present() {
		return skipped == null;
	}
}
