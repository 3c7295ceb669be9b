package io.fiberjvm.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.k8s.TestCluster;

/**
 * What the Kubernetes backend costs over the local one, in the same run on the same machine: the
 * Kubernetes jobs run on fiber-k8s's test cluster (a real kube-apiserver and etcd, and the node
 * agent as kubelet running each pod's JVM here), so the difference is the API server round trips,
 * the informer and the agent, not a slower machine.
 *
 * <p>Measures, per backend: the life of a no-op job-backed process ({@code start()} to {@code join()},
 * median and 90th percentile of {@code --starts} after 2 warm-ups), and a pool of 2 workers mapping
 * {@code --tasks} tasks of 1 ms (mean of 3 after a warm-up pass). Class sharing is off for both, since
 * jobs on a cluster cannot map the parent's archive. Prints Markdown and writes it to
 * {@code --out/kubernetes-backend.md}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.KubernetesBackendHarness [--starts 10] [--tasks 2000] [--out benchmarks/results]
 * </pre>
 */
public final class KubernetesBackendHarness {

	private static final Duration LONG = Duration.ofMinutes(3);
	private static final FiberFunction<Integer, Integer> ONE_MILLISECOND = x -> {
		try {
			Thread.sleep(1);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		return x;
	};

	private KubernetesBackendHarness() {
	}

	/** Figures for one backend. */
	private record Figures(double startMedianMs, double startP90Ms, double mapSeconds) {
	}

	public static void main(String[] args) throws Exception {
		int starts = 10;
		int tasks = 2000;
		Path out = Path.of("benchmarks", "results");
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--starts" -> starts = Integer.parseInt(args[++i]);
				case "--tasks" -> tasks = Integer.parseInt(args[++i]);
				case "--out" -> out = Path.of(args[++i]);
				default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--starts N, --tasks N, --out DIR)");
			}
		}
		try (TestCluster cluster = TestCluster.start()) {
			String ns = cluster.servedNamespace("bench");
			Figures local = measure("local", () -> Fiber.builder().backend("local").set("class-sharing", "false").open(), starts, tasks);
			Figures kubernetes = measure("kubernetes", () -> Fiber.builder().backend("kubernetes")
					.set("kubeconfig", cluster.kubeconfig().toString()).set("namespace", ns).set("image", "bench:1")
					.set("host", "127.0.0.1").set("class-sharing", "false").open(), starts, tasks);
			String report = String.format(Locale.ROOT, """
					| %d runs on this machine | local backend | Kubernetes backend | Kubernetes / local |
					|---|---|---|---|
					| no-op process, start to join, median | %.0f ms | %.0f ms | %.2f× |
					| no-op process, start to join, p90 | %.0f ms | %.0f ms | %.2f× |
					| pool of 2, %d × 1 ms tasks, mean of 3 | %.3f s | %.3f s | %.2f× |
					""", starts, local.startMedianMs(), kubernetes.startMedianMs(), kubernetes.startMedianMs() / local.startMedianMs(),
					local.startP90Ms(), kubernetes.startP90Ms(), kubernetes.startP90Ms() / local.startP90Ms(),
					tasks, local.mapSeconds(), kubernetes.mapSeconds(), kubernetes.mapSeconds() / local.mapSeconds());
			System.out.print(report);
			Files.createDirectories(out);
			Files.writeString(out.resolve("kubernetes-backend.md"), report);
		}
	}

	private static Figures measure(String name, Supplier<Fiber> open, int starts, int tasks) {
		try (Fiber fiber = open.get()) {
			List<Double> lives = new ArrayList<>();
			for (int i = -2; i < starts; i++) {
				long begin = System.nanoTime();
				FiberProcess process = fiber.process(() -> { }).name("noop").start().block(LONG);
				process.join().block(LONG);
				double ms = (System.nanoTime() - begin) / 1e6;
				if (i >= 0) {
					lives.add(ms);
				}
				System.err.printf(Locale.ROOT, "%s: process %d: %.0f ms%n", name, i, ms);
			}
			Collections.sort(lives);
			FiberPool pool = fiber.pool(2).open();
			double total = 0;
			for (int run = -1; run < 3; run++) {
				long begin = System.nanoTime();
				pool.map(ONE_MILLISECOND, Flux.range(0, tasks)).blockLast(LONG);
				double seconds = (System.nanoTime() - begin) / 1e9;
				if (run >= 0) {
					total += seconds;
				}
				System.err.printf(Locale.ROOT, "%s: map %d: %.3f s%n", name, run, seconds);
			}
			return new Figures(lives.get(lives.size() / 2), lives.get((int) Math.ceil(lives.size() * 0.9) - 1), total / 3);
		}
	}
}
