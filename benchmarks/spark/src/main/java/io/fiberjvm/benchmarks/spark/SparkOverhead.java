package io.fiberjvm.benchmarks.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * Apache Spark's column of the pool-overhead test: the wall time of sleep tasks through Spark's Java API
 * in {@code local[N]} mode, {@code sc.parallelize(items).map(sleep).collect()} with Spark's default
 * partitioning, as a user who does not tune it gets.
 *
 * <p>The protocol is the Python script's ({@code benchmarks/python/pool_overhead.py}), so the harness reads
 * both alike: standard output has one comment line (starting with {@code #}) saying what ran, then one line
 * per configuration, {@code tasks,seconds_per_task,mean_wall_seconds,min_wall_seconds,max_wall_seconds}.
 * Progress goes to standard error. Tasks of whole milliseconds call {@link Thread#sleep(long)}; shorter
 * ones park until their time is up, as the Java executors' tasks do.
 *
 * <pre>
 * java [Spark's --add-opens] -cp benchmarks-spark.jar:SPARK_CLASSPATH io.fiberjvm.benchmarks.spark.SparkOverhead
 *     [--runs 3] [--warmups 5] [--workers 5] TASKS:SECONDS ...
 * </pre>
 */
public final class SparkOverhead {

	private SparkOverhead() {
	}

	public static void main(String[] args) {
		int runs = 3;
		int warmups = 5;
		int workers = 5;
		List<long[]> configs = new ArrayList<>();
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--runs" -> runs = Integer.parseInt(args[++i]);
				case "--warmups" -> warmups = Integer.parseInt(args[++i]);
				case "--workers" -> workers = Integer.parseInt(args[++i]);
				default -> {
					String[] parts = args[i].split(":");
					if (parts.length != 2) {
						throw new IllegalArgumentException("'" + args[i] + "' is not TASKS:SECONDS (or --runs, --warmups, --workers)");
					}
					configs.add(new long[] {Long.parseLong(parts[0]), Math.round(Double.parseDouble(parts[1]) * 1e9)});
				}
			}
		}
		SparkConf conf = new SparkConf().setMaster("local[" + workers + "]").setAppName("fiber-pool-overhead")
				.set("spark.ui.enabled", "false");
		try (JavaSparkContext spark = new JavaSparkContext(conf)) {
			spark.setLogLevel("WARN");
			System.out.printf(Locale.ROOT, "# Spark %s local[%d], default parallelism %d, JDK %s%n", spark.version(), workers,
					spark.defaultParallelism(), System.getProperty("java.version"));
			for (long[] config : configs) {
				List<Integer> items = IntStream.range(0, (int) config[0]).boxed().toList();
				long nanos = config[1];
				for (int w = 0; w < warmups; w++) {
					timedPass(spark, items, nanos);
				}
				double sum = 0;
				double min = Double.POSITIVE_INFINITY;
				double max = 0;
				for (int r = 0; r < runs; r++) {
					double wall = timedPass(spark, items, nanos);
					System.err.printf(Locale.ROOT, "Spark run %d, %d × %.4f s: %.3f s%n", r + 1, items.size(), nanos / 1e9, wall);
					sum += wall;
					min = Math.min(min, wall);
					max = Math.max(max, wall);
				}
				System.out.printf(Locale.ROOT, "%d,%s,%.6f,%.6f,%.6f%n", items.size(), Double.toString(nanos / 1e9), sum / runs, min, max);
				System.out.flush();
			}
		}
	}

	private static double timedPass(JavaSparkContext spark, List<Integer> items, long nanos) {
		long start = System.nanoTime();
		JavaRDD<Integer> rdd = spark.parallelize(items);
		List<Integer> results = rdd.map(item -> {
			pause(nanos);
			return item;
		}).collect();
		double wall = (System.nanoTime() - start) / 1e9;
		if (results.size() != items.size()) {
			throw new IllegalStateException("Spark returned " + results.size() + " results for " + items.size() + " tasks");
		}
		return wall;
	}

	private static void pause(long nanos) {
		if (nanos % 1_000_000 == 0) {
			try {
				Thread.sleep(nanos / 1_000_000);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("interrupted in a sleep task", e);
			}
			return;
		}
		long deadline = System.nanoTime() + nanos;
		for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
			LockSupport.parkNanos(left);
		}
	}
}
