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
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.k8s.RealCluster;
import io.fiberjvm.pool.FiberPool;

/**
 * What the Kubernetes backend costs over the local one, in the same run on the same machine: the Kubernetes jobs are
 * pods of fiber-k8s's real test cluster (RealCluster: the real scheduler, and a kubelet running containers with
 * containerd and runc, from the image of this harness's own classpath), and this JVM is a program outside the cluster
 * reaching its pods over the cluster network's link to this machine.
 *
 * <p>Measures, per backend: the life of a no-op job-backed process ({@code start()} to {@code join()}, median and 90th
 * percentile of {@code --starts} after 2 warm-ups); a pool of 2 workers mapping {@code --tasks} tasks of 1 ms (mean
 * of 3 after a warm-up pass); and {@code --burst} processes started at once, each timed from {@code start()} to running
 * its target (percentiles). Class sharing is off for both, since pods cannot map this machine's archive. Prints
 * Markdown and writes it to {@code --out/kubernetes-backend.md}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.KubernetesBackendHarness [--starts 10] [--tasks 2000] [--burst 32] [--out benchmarks/results]
 * </pre>
 */
public final class KubernetesBackendHarness {

	private static final Duration LONG = Duration.ofMinutes(5);
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
	private record Figures(double startMedianMs, double startP90Ms, double mapSeconds, List<Double> burstMs) {

		double burst(double quantile) {
			return burstMs.get(Math.max(0, (int) Math.ceil(burstMs.size() * quantile) - 1));
		}
	}

	public static void main(String[] args) throws Exception {
		int starts = 10;
		int tasks = 2000;
		int burst = 32;
		Path out = Path.of("benchmarks", "results");
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--starts" -> starts = Integer.parseInt(args[++i]);
				case "--tasks" -> tasks = Integer.parseInt(args[++i]);
				case "--burst" -> burst = Integer.parseInt(args[++i]);
				case "--out" -> out = Path.of(args[++i]);
				default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--starts N, --tasks N, --burst N, --out DIR)");
			}
		}
		try (RealCluster cluster = RealCluster.start(Path.of("target", "real-cluster").toAbsolutePath())) {
			String ns = cluster.namespace("bench");
			// 32 JVMs starting at once on 2 cores take longer than the default start timeout.
			Figures local = measure("local", () -> Fiber.builder().backend("local").set("class-sharing", "false")
					.set("start-timeout", "10m").open(), starts, tasks, burst);
			Figures kubernetes = measure("kubernetes", () -> Fiber.builder().backend("kubernetes")
					.set("kubeconfig", cluster.kubeconfig().toString()).set("namespace", ns).set("image", RealCluster.IMAGE)
					.set("host", RealCluster.HOST_ADDRESS).set("class-sharing", "false").set("start-timeout", "10m").open(),
					starts, tasks, burst);
			String report = String.format(Locale.ROOT, """
					| one run on this machine (2 cores) | local backend | Kubernetes backend, real kubelet | Kubernetes / local |
					|---|---|---|---|
					| no-op process, start to join, median of %d | %.0f ms | %.0f ms | %.2f× |
					| no-op process, start to join, p90 | %.0f ms | %.0f ms | %.2f× |
					| pool of 2, %d × 1 ms tasks, mean of 3 | %.3f s | %.3f s | %.2f× |
					| %d processes started at once, start to running, median | %.0f ms | %.0f ms | %.2f× |
					| the same, p90 | %.0f ms | %.0f ms | %.2f× |
					| the same, slowest | %.0f ms | %.0f ms | %.2f× |
					""", starts, local.startMedianMs(), kubernetes.startMedianMs(), kubernetes.startMedianMs() / local.startMedianMs(),
					local.startP90Ms(), kubernetes.startP90Ms(), kubernetes.startP90Ms() / local.startP90Ms(),
					tasks, local.mapSeconds(), kubernetes.mapSeconds(), kubernetes.mapSeconds() / local.mapSeconds(),
					burst, local.burst(0.5), kubernetes.burst(0.5), kubernetes.burst(0.5) / local.burst(0.5),
					local.burst(0.9), kubernetes.burst(0.9), kubernetes.burst(0.9) / local.burst(0.9),
					local.burst(1.0), kubernetes.burst(1.0), kubernetes.burst(1.0) / local.burst(1.0));
			System.out.println(report);
			Files.createDirectories(out);
			Files.writeString(out.resolve("kubernetes-backend.md"), report);
		}
	}

	private static Figures measure(String name, Supplier<Fiber> open, int starts, int tasks, int burst) {
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
			double total = 0;
			FiberPool pool = fiber.pool(2).open();
			for (int run = -1; run < 3; run++) {
				long begin = System.nanoTime();
				pool.map(ONE_MILLISECOND, Flux.range(0, tasks)).blockLast(LONG);
				double seconds = (System.nanoTime() - begin) / 1e9;
				if (run >= 0) {
					total += seconds;
				}
				System.err.printf(Locale.ROOT, "%s: map %d: %.3f s%n", name, run, seconds);
			}
			pool.close();
			List<Double> burstMs = burst(fiber, burst);
			System.err.printf(Locale.ROOT, "%s: burst of %d: %s ms%n", name, burst, burstMs);
			return new Figures(lives.get(lives.size() / 2), lives.get((int) Math.ceil(lives.size() * 0.9) - 1), total / 3, burstMs);
		}
	}

	/** {@code count} processes started at once, each timed from its start to running its target; sorted. */
	private static List<Double> burst(Fiber fiber, int count) {
		long begin = System.nanoTime();
		List<FiberProcess> started = new ArrayList<>();
		List<Double> ms = Flux.range(0, count)
				.flatMap(i -> fiber.process(() -> { }).name("burst-" + i).start()
						.doOnNext(started::add)
						.flatMap(process -> process.onRunning().then(Mono.fromCallable(() -> (System.nanoTime() - begin) / 1e6))), count)
				.collectList()
				.block(LONG);
		Flux.fromIterable(List.copyOf(started)).flatMap(FiberProcess::join).blockLast(LONG);
		List<Double> sorted = new ArrayList<>(ms);
		Collections.sort(sorted);
		return sorted;
	}
}
