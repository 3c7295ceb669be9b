package io.fiberjvm.benchmarks;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import io.fiberjvm.benchmarks.PoolOverheadHarness.Config;

/** The command line, with the paper's defaults. */
record OverheadOptions(int runs, int warmups, Path out, Path pythonScript, Path sparkClasspath, List<Config> configs, int noopTasks) {

	static OverheadOptions parse(String[] args) {
		int runs = 3;
		// JIT-compiled code in six JVMs (parent and workers) is the steady state users run in; one pass is not enough to reach it.
		int warmups = 5;
		Path out = Path.of("benchmarks", "results");
		Path script = Path.of("benchmarks", "python", "pool_overhead.py");
		Path spark = Path.of("benchmarks", "spark", "target", "spark-classpath.txt");
		List<Config> configs = PoolOverheadHarness.PAPER_CONFIGS;
		int noopTasks = 200_000;
		for (int i = 0; i < args.length; i++) {
			String name = args[i];
			if (i + 1 >= args.length) {
				throw new IllegalArgumentException("no value after " + name);
			}
			String value = args[++i];
			switch (name) {
				case "--runs" -> runs = Integer.parseInt(value);
				case "--warmups" -> warmups = Integer.parseInt(value);
				case "--out" -> out = Path.of(value);
				case "--python-script" -> script = Path.of(value);
				case "--spark-classpath" -> spark = Path.of(value);
				case "--configs" -> configs = Arrays.stream(value.split(",")).map(Config::parse).toList();
				case "--noop-tasks" -> noopTasks = Integer.parseInt(value);
				default -> throw new IllegalArgumentException("unknown option " + name);
			}
		}
		if (runs < 1 || noopTasks < 1 || warmups < 1) {
			throw new IllegalArgumentException("--runs, --warmups and --noop-tasks must be at least 1");
		}
		return new OverheadOptions(runs, warmups, out, script, spark, configs, noopTasks);
	}
}
