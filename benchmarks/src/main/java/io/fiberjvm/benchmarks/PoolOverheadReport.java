package io.fiberjvm.benchmarks;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.fiberjvm.benchmarks.PoolOverheadHarness.Config;
import io.fiberjvm.benchmarks.PoolOverheadHarness.Summary;
import io.fiberjvm.pool.PoolStats;

import static io.fiberjvm.benchmarks.PoolOverheadHarness.FIBER;
import static io.fiberjvm.benchmarks.PoolOverheadHarness.NOOP_WORKERS;
import static io.fiberjvm.benchmarks.PoolOverheadHarness.THREADS;
import static io.fiberjvm.benchmarks.PoolOverheadHarness.WORKERS;

/** The results, rendered as Markdown, CSV and SVG. */
record PoolOverheadReport(OverheadOptions options, List<Config> configs, List<Summary> threads, List<Summary> fiber, List<ExternalColumn> external,
		Summary threadNoop, Summary fiberNoop, PoolStats fiberStats) {

	private static final String[] COLOURS = {"#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756"};

	/** One executor's wall times, a summary per configuration. */
	private record Column(String name, List<Summary> results) {

		double mean(int configuration) {
			return results.get(configuration).mean();
		}
	}

	/** The executors with results, the thread pool first. */
	private List<Column> columns() {
		List<Column> columns = new ArrayList<>(List.of(new Column(THREADS, threads), new Column(FIBER, fiber)));
		external.stream().filter(ExternalColumn::present).forEach(column -> columns.add(new Column(column.name(), column.results())));
		return columns;
	}

	String markdown() {
		List<Column> columns = columns();
		List<String> names = columns.stream().map(Column::name).toList();
		StringBuilder md = new StringBuilder();
		md.append("# Pool overhead: ").append(String.join(", ", names)).append("\n\n");
		String abouts = external.stream().filter(ExternalColumn::present).map(ExternalColumn::about).reduce("", (x, y) -> x + "; " + y);
		md.append(String.format(Locale.ROOT, "%s, %s %s, %d cores%s. %d workers per executor; each configuration is N tasks "
				+ "of duration d, ideal wall time N × d / %d. Mean wall time of %d timed runs after %d warm-up passes (Python: one); ratios "
				+ "are to the thread pool in the same run.\n\n",
				ZonedDateTime.now().format(DateTimeFormatter.ISO_LOCAL_DATE), System.getProperty("java.vm.name"),
				System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(), abouts, WORKERS, WORKERS,
				options.runs(), options.warmups()));
		md.append("Java tasks of whole milliseconds call `Thread.sleep`; shorter ones park (`LockSupport.parkNanos`) until "
				+ "their time is up. Python tasks call `time.sleep`, through `multiprocessing.Pool.map` with its default chunk size "
				+ "and through Python Fiber's `fiber.Pool.map` (local backend) with chunk size " + OverheadPeers.PYTHON_FIBER_CHUNKSIZE
				+ ", as the Fiber paper's own benchmark ran it (its default of 32 tasks a chunk puts all of 5 × 1 s on one worker). FiberPool "
				+ "uses `map(...)` (results in input order) with its adaptive chunks; the thread pool `invokeAll`; Spark "
				+ "`parallelize(items).map(task).collect()` with its default partitioning.\n\n");
		md.append("| configuration | ideal s |");
		names.forEach(name -> md.append(' ').append(name).append(" s |"));
		names.subList(1, names.size()).forEach(name -> md.append(' ').append(name).append(" / threads |"));
		md.append("\n|---|---|").append("---|".repeat(2 * names.size() - 1)).append('\n');
		for (int c = 0; c < configs.size(); c++) {
			md.append(String.format(Locale.ROOT, "| %s | %.3f |", configs.get(c).label(), configs.get(c).idealSeconds(WORKERS)));
			for (Column column : columns) {
				md.append(String.format(Locale.ROOT, " %.3f |", column.mean(c)));
			}
			for (Column column : columns.subList(1, columns.size())) {
				md.append(String.format(Locale.ROOT, " %.2f |", column.mean(c) / columns.get(0).mean(c)));
			}
			md.append('\n');
		}
		external.stream().filter(column -> !column.present())
				.forEach(column -> md.append("\n").append(column.skipped()).append(".\n"));
		md.append(String.format(Locale.ROOT, "\nFiberPool counters after the timed runs: %d tasks completed, %d failed, "
				+ "%d lost with a worker, %d retried; %d workers started, %d lost.\n", fiberStats.completed(), fiberStats.failed(),
				fiberStats.lost(), fiberStats.retried(), fiberStats.workersStarted(), fiberStats.workersLost()));

		md.append(String.format(Locale.ROOT, "\n## No-op task throughput, %d workers\n\n", NOOP_WORKERS));
		md.append(String.format(Locale.ROOT, "%,d tasks of `x -> x` on Integers per run; mean of %d timed runs after %d "
				+ "warm-up passes.\n\n", options.noopTasks(), options.runs(), options.warmups()));
		md.append("| executor | mean tasks/s | min | max | ratio to thread pool |\n|---|---|---|---|---|\n");
		md.append(String.format(Locale.ROOT, "| %s (%d threads) | %,.0f | %,.0f | %,.0f | 1.00 |\n", THREADS, NOOP_WORKERS,
				threadNoop.mean(), threadNoop.min(), threadNoop.max()));
		md.append(String.format(Locale.ROOT, "| %s (%d worker JVMs) | %,.0f | %,.0f | %,.0f | %.3f |\n", FIBER, NOOP_WORKERS,
				fiberNoop.mean(), fiberNoop.min(), fiberNoop.max(), fiberNoop.mean() / threadNoop.mean()));
		return md.toString();
	}

	String csv() {
		StringBuilder csv = new StringBuilder("benchmark,executor,workers,tasks,task_seconds,runs,mean,min,max,unit,ratio_to_thread_pool\n");
		for (int c = 0; c < configs.size(); c++) {
			Config config = configs.get(c);
			double base = threads.get(c).mean();
			for (Column column : columns()) {
				csvRow(csv, "sleep", column.name(), WORKERS, config.tasks(), config.taskSecondsText(), column.results().get(c),
						"wall_seconds", column.mean(c) / base);
			}
		}
		// A column that did not run keeps its rows, empty, so a reader of the file sees it was missing and not dropped.
		for (ExternalColumn column : external) {
			if (!column.present()) {
				for (Config config : configs) {
					csv.append(String.format(Locale.ROOT, "sleep,%s,%d,%d,%s,0,,,,skipped,\n", column.name(), WORKERS, config.tasks(),
							config.taskSecondsText()));
				}
			}
		}
		csvRow(csv, "noop", THREADS, NOOP_WORKERS, options.noopTasks(), "0", threadNoop, "tasks_per_second", 1.0);
		csvRow(csv, "noop", FIBER, NOOP_WORKERS, options.noopTasks(), "0", fiberNoop, "tasks_per_second",
				fiberNoop.mean() / threadNoop.mean());
		return csv.toString();
	}

	private void csvRow(StringBuilder csv, String benchmark, String executor, int workers, int tasks, String taskSeconds,
			Summary summary, String unit, double ratio) {
		csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%s,%d,%.6f,%.6f,%.6f,%s,%.4f\n", benchmark, executor, workers, tasks,
				taskSeconds, options.runs(), summary.mean(), summary.min(), summary.max(), unit, ratio));
	}

	/** The paper's Figure 9 view: each executor's wall time over the ideal, one line per executor, against the task count. */
	String overheadSvg() {
		LineChart chart = new LineChart("Wall time / ideal, " + WORKERS + " workers, 1 s of work cut into N tasks",
				"tasks (N)", "wall time / ideal");
		List<Column> columns = columns();
		for (int e = 0; e < columns.size(); e++) {
			List<double[]> points = new ArrayList<>();
			for (int c = 0; c < configs.size(); c++) {
				points.add(new double[] {configs.get(c).tasks(), columns.get(e).mean(c) / configs.get(c).idealSeconds(WORKERS)});
			}
			chart.add(new LineChart.Series(legendName(columns.get(e).name()), COLOURS[e], points));
		}
		String svg = chart.svg();
		String notRun = notRun();
		if (notRun.isEmpty()) {
			return svg;
		}
		// The chart's height is fixed: the note goes at its foot, under the axis label.
		int end = svg.lastIndexOf("</svg>");
		return svg.substring(0, end) + LineChart.text(8, 436, "start", 11, notRun) + svg.substring(end);
	}

	/** Grouped bars: one group per configuration, one bar per executor, a dashed mark at the ideal time. */
	String svg() {
		List<Column> columns = columns();
		List<String> names = columns.stream().map(Column::name).toList();
		double[][] means = new double[configs.size()][names.size()];
		double top = 0;
		for (int c = 0; c < configs.size(); c++) {
			for (int e = 0; e < names.size(); e++) {
				means[c][e] = columns.get(e).mean(c);
				top = Math.max(top, means[c][e]);
			}
			top = Math.max(top, configs.get(c).idealSeconds(WORKERS));
		}
		double step = niceStep(top * 1.15 / 5);
		double axisTop = Math.ceil(top * 1.15 / step) * step;

		int width = 960;
		int height = 560;
		int left = 80;
		int right = 30;
		int plotTop = 100;
		int plotBottom = height - 80;
		double plotWidth = width - left - right;
		double plotHeight = plotBottom - plotTop;
		double groupWidth = plotWidth / configs.size();
		double barWidth = groupWidth * 0.75 / names.size();

		StringBuilder svg = new StringBuilder();
		svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
		svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
				+ "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n", width, height, width, height));
		svg.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height));
		svg.append(LineChart.text(width / 2.0, 30, "middle", 18, "Framework overhead: wall time per configuration, " + WORKERS
				+ " workers per executor (mean of " + options.runs() + " runs)"));

		// Legend, one row under the title.
		double legendX = left;
		for (int e = 0; e < names.size(); e++) {
			svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"52\" width=\"14\" height=\"14\" fill=\"%s\"/>\n", legendX,
					COLOURS[e]));
			svg.append(LineChart.text(legendX + 20, 64, "start", 13, names.get(e)));
			legendX += 40 + names.get(e).length() * 7.5;
		}
		svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"59\" x2=\"%.1f\" y2=\"59\" stroke=\"black\" "
				+ "stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\n", legendX, legendX + 24));
		svg.append(LineChart.text(legendX + 30, 64, "start", 13, "ideal (N × d / " + WORKERS + ")"));

		// Y axis: grid lines and tick labels.
		for (double tick = 0; tick <= axisTop + step / 2; tick += step) {
			double y = plotBottom - tick / axisTop * plotHeight;
			svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n", left, y,
					width - right, y));
			svg.append(LineChart.text(left - 8, y + 4, "end", 12, trimNumber(tick)));
		}
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, plotTop,
				left, plotBottom));
		svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n", left, plotBottom,
				width - right, plotBottom));
		svg.append(String.format(Locale.ROOT, "<text x=\"20\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"14\" "
				+ "transform=\"rotate(-90 20 %.1f)\">wall time (s)</text>\n", plotTop + plotHeight / 2, plotTop + plotHeight / 2));
		svg.append(LineChart.text(left + plotWidth / 2, height - 22, "middle", 14, "configuration (tasks × task duration)"));

		for (int c = 0; c < configs.size(); c++) {
			double groupLeft = left + c * groupWidth + groupWidth * 0.125;
			for (int e = 0; e < names.size(); e++) {
				double value = means[c][e];
				double barHeight = value / axisTop * plotHeight;
				double x = groupLeft + e * barWidth;
				svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
						+ "<title>%s, %s: %.3f s</title></rect>\n", x, plotBottom - barHeight, barWidth - 2, barHeight, COLOURS[e],
						LineChart.escape(names.get(e)), LineChart.escape(configs.get(c).label()), value));
				svg.append(LineChart.text(x + (barWidth - 2) / 2, plotBottom - barHeight - 4, "middle", 10, significant(value)));
			}
			double idealY = plotBottom - configs.get(c).idealSeconds(WORKERS) / axisTop * plotHeight;
			svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" "
					+ "stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\n", groupLeft - 4, idealY, groupLeft + names.size() * barWidth + 2,
					idealY));
			svg.append(LineChart.text(left + (c + 0.5) * groupWidth, plotBottom + 20, "middle", 13, configs.get(c).label()));
		}
		String notRun = notRun();
		if (!notRun.isEmpty()) {
			svg.append(LineChart.text(left, height - 4, "start", 12, notRun));
		}
		svg.append("</svg>\n");
		return svg.toString();
	}

	/** The line chart's legend is one row of fixed width: "multiprocessing" and "Spark" leave room for five executors. */
	private static String legendName(String name) {
		return name.replace(".Pool", "").replace(" local[" + WORKERS + "]", "");
	}

	/** "not run: Python Fiber, Spark local[5] (why: pool-overhead.md)" for the columns that were skipped, or "" when none was. */
	private String notRun() {
		List<String> names = external.stream().filter(column -> !column.present()).map(ExternalColumn::name).toList();
		return names.isEmpty() ? "" : "not run: " + String.join(", ", names) + " (why: pool-overhead.md)";
	}

	/** A round step for about five ticks: 1, 2 or 5 times a power of ten. */
	private static double niceStep(double rough) {
		double power = Math.pow(10, Math.floor(Math.log10(rough)));
		double fraction = rough / power;
		return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
	}

	/** Three significant digits, so bars of milliseconds and of seconds are both labelled readably. */
	private static String significant(double value) {
		return new BigDecimal(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
	}

	private static String trimNumber(double value) {
		return BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
	}

}
