package io.fiberjvm.benchmarks;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.benchmarks.PoolOverheadHarness.Summary;

/**
 * The fast-path table as Markdown: one row per measured figure, one column per library, and this project's figure over
 * each Python one.
 *
 * <p>The contract: each cell is the mean of the timed runs with their range; a probe a column could not run shows
 * "not run" in its cells and its reason under the table, so nothing is dropped silently.
 */
final class FastPathReport {

	/**
	 * One row: the metric it shows, what the row says, how to print a value, which way is better, and the metric a
	 * column without this one shows instead (null for none).
	 */
	record Row(String key, String label, String format, boolean lowerIsBetter, @Nullable String instead) {

		Row(String key, String label, String format, boolean lowerIsBetter) {
			this(key, label, format, lowerIsBetter, null);
		}

		/** The values {@code column} shows in this row. */
		List<Double> values(FastPathColumn column) {
			List<Double> own = column.values(key);
			return own.isEmpty() && instead != null ? column.values(instead) : own;
		}

		String probe() {
			return key.substring(0, key.indexOf('/'));
		}
	}

	static final List<Row> ROWS = List.of(
			new Row("pool-start/seconds", "pool of 8: from creating it until all 8 workers have answered, s", "%.3f", true),
			new Row("pool-start/reused_seconds", "the same, for a pool of 8 opened after one closed, s", "%.3f", true,
					"pool-start/seconds"),
			new Row("queue-echo/p50_us", "queue echo through a child, p50 µs", "%.1f", true),
			new Row("queue-echo/p99_us", "queue echo through a child, p99 µs", "%.1f", true),
			new Row("noop/tasks_per_second", "no-op tasks/s, pool of 2, chunks of %CHUNK%, after warm-up", "%,.0f", false),
			new Row("noop/first_pass_tasks_per_second", "the same, the first pass of a new pool", "%,.0f", false));
	/** The probes the rows come from: pool-start, queue-echo, noop. */
	private static final int PROBES = (int) ROWS.stream().map(Row::probe).distinct().count();

	private final FastPathHarness.Options options;
	private final List<FastPathColumn> columns;

	/** {@code columns} in table order; the last is this project, the one the ratios are of. */
	FastPathReport(FastPathHarness.Options options, List<FastPathColumn> columns) {
		this.options = Objects.requireNonNull(options, "options");
		this.columns = List.copyOf(columns);
	}

	String markdown() {
		FastPathColumn ours = columns.get(columns.size() - 1);
		List<FastPathColumn> peers = columns.subList(0, columns.size() - 1);
		StringBuilder md = new StringBuilder("# Fast paths: Python Fiber, multiprocessing and this project\n\n");
		md.append(String.format(Locale.ROOT, "%s, %s %s, %d cores. Mean of %d timed runs, with their range; %d warm-up passes "
				+ "before the queue echo (%,d round trips a pass, one item in flight); the no-op probe times a new pool's first "
				+ "pass (%,d tasks a pass), then passes untimed until %d passes and %d s have gone, then the timed runs; "
				+ "a pool start has one, untimed, so that the class archive of a freshly built jar exists, as Python's bytecode "
				+ "caches do (each run then starts new pools). Ratios are of means, this project's over the peer's: "
				+ "below 1 is better for times, above 1 for tasks/s. The Python columns run `benchmarks/python/fast_path.py` "
				+ "after this project's figures, alone on the machine.\n\n",
				ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE), System.getProperty("java.vm.name"),
				System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), options.runs(), options.warmups(),
				options.roundTrips(), options.noopTasks(), options.warmups(), options.noopWarmupSeconds()));
		md.append("| probe | better |");
		columns.forEach(column -> md.append(' ').append(column.name()).append(" |"));
		peers.forEach(peer -> md.append(' ').append(ours.name()).append(" / ").append(peer.name()).append(" |"));
		md.append("\n|---|---|").append("---|".repeat(columns.size() + peers.size())).append('\n');
		for (Row row : ROWS) {
			md.append("| ").append(row.label().replace("%CHUNK%", String.format(Locale.ROOT, "%,d", options.chunkSize())))
					.append(" | ").append(row.lowerIsBetter() ? "lower" : "higher").append(" |");
			for (FastPathColumn column : columns) {
				md.append(' ').append(cell(column, row)).append(" |");
			}
			for (FastPathColumn peer : peers) {
				md.append(' ').append(ratio(ours, peer, row)).append(" |");
			}
			md.append('\n');
		}
		md.append("\nHow each probe runs: the pool start times rounds of 4 × 8 tasks (one a chunk, each sleeping 1 ms and "
				+ "answering its process id) until 8 distinct ids have answered, from the pool's creation (Python) or `open()` "
				+ "(this project, with `chunkSize(1)`, its runtime already listening). This project's first pool of each run "
				+ "is the first of a new `Fiber`, so it starts eight JVMs; the second row is the next pool of that `Fiber`, "
				+ "opened once the first has closed, which runs in the first one's idle worker JVMs (`worker-idle-time`). "
				+ "Python Fiber and multiprocessing start new processes for every pool, so their second row repeats their "
				+ "first. The queue echo puts a 64-byte item on "
				+ "queue A, a child process takes it and puts it on queue B, the parent takes it: Python Fiber's and "
				+ "multiprocessing's `SimpleQueue`, this project's `FiberQueue<byte[]>` with the default `receive()` on both "
				+ "consumers. The no-op probe maps `x -> x` over the tasks with the same chunk size everywhere "
				+ "(`pool.map(noop, range(N), chunksize)`, `pool.chunkSize(n).map(...)`). The column " + PlainRSocketFloor.NAME
				+ " is the transport the design builds on, measured the same way with no Fiber in it: eight JVMs on this "
				+ "classpath started at once (with a class archive, as Fiber's children have), each connecting with plain "
				+ "RSocket over TCP and sending one request, until all eight have arrived; and a 64-byte RSocket "
				+ "request-response to an echo JVM, one at a time, for the echo.\n");
		for (FastPathColumn column : columns) {
			// One note per reason: a column missing altogether (no Python Fiber) says so once.
			Map<String, List<String>> probesByReason = new LinkedHashMap<>();
			column.missing().forEach((probe, reason) -> probesByReason.computeIfAbsent(reason, key -> new ArrayList<>()).add(probe));
			probesByReason.forEach((reason, probes) -> md.append("\n").append(column.name())
					.append(probes.size() == PROBES ? "" : ", " + String.join(" and ", probes)).append(" not run: ").append(reason).append(".\n"));
		}
		md.append("\nWhat ran:\n\n");
		for (FastPathColumn column : columns) {
			for (String about : column.abouts()) {
				md.append("- ").append(column.name()).append(": ").append(about).append('\n');
			}
		}
		md.append("\nRL stepping (four CartPole environments in manager processes): `rl-stepping.md`, from `RlSteppingHarness`.\n");
		return md.toString();
	}

	/** {@code 163.0 (160.2–171.4)}, or why the probe did not run in this column. */
	private static String cell(FastPathColumn column, Row row) {
		List<Double> values = row.values(column);
		if (values.isEmpty()) {
			return column.missingReason(row.probe()) != null ? "not run" : "no value";
		}
		Summary summary = Summary.of(values);
		return String.format(Locale.ROOT, row.format() + " (" + row.format() + "–" + row.format() + ")", summary.mean(), summary.min(),
				summary.max());
	}

	private static String ratio(FastPathColumn ours, FastPathColumn peer, Row row) {
		List<Double> mine = ours.values(row.key());
		List<Double> theirs = row.values(peer);
		if (mine.isEmpty() || theirs.isEmpty()) {
			return "";
		}
		return String.format(Locale.ROOT, "%.3g", Summary.of(mine).mean() / Summary.of(theirs).mean());
	}
}
