package io.fiberjvm.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.util.retry.Retry;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.WorkerLostException;

/**
 * How soon a pool works again once its workers stop being killed as they start, against how soon a new pool works
 * at all, in one run.
 *
 * <p>The contract: a pool of {@code --workers} (2) runs an endless unordered map of 1 ms tasks; every child JVM of
 * this process is SIGKILLed every 300 ms for {@code --kill-seconds} (20), so no worker lives to connect; then the
 * kills stop and the harness times how long until the next task completes (recovery). The baseline is the time
 * from opening a pool of the same size until its first task completes, measured {@code --runs} (3) times in the same
 * run, as is the recovery. Prints each run and the medians, and their ratio.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.PoolRecoveryHarness [--workers 2] [--kill-seconds 20] [--runs 3]
 * </pre>
 */
public final class PoolRecoveryHarness {

	private static final Duration LONG = Duration.ofMinutes(5);
	private static final FiberFunction<Integer, Integer> ONE_MS = x -> {
		java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
		return x;
	};

	private PoolRecoveryHarness() {
	}

	public static void main(String[] args) {
		int workers = HarnessArgs.intOption(args, "--workers", 2);
		int killSeconds = HarnessArgs.intOption(args, "--kill-seconds", 20);
		int runs = HarnessArgs.intOption(args, "--runs", 3);
		List<Double> firstResult = new ArrayList<>();
		List<Double> recovery = new ArrayList<>();
		for (int run = 0; run < runs; run++) {
			// worker-idle-time=0s: no JVM of an earlier pool serves this one, so each start is a JVM start.
			try (Fiber fiber = Fiber.builder().set("worker-idle-time", "0s").open()) {
				firstResult.add(secondsToFirstResult(fiber, workers));
				recovery.add(secondsToRecover(fiber, workers, killSeconds));
			}
			System.out.printf(Locale.ROOT, "run %d: new pool's first result %.2f s, first result after the kills stop %.2f s%n", run + 1,
					firstResult.get(run), recovery.get(run));
		}
		double baseline = median(firstResult);
		double recovered = median(recovery);
		System.out.printf(Locale.ROOT, "median: new pool %.2f s, recovery %.2f s, recovery / new pool %.2f%n", baseline, recovered,
				recovered / baseline);
	}

	private static double secondsToFirstResult(Fiber fiber, int workers) {
		long start = System.nanoTime();
		try (FiberPool pool = fiber.pool(workers).name("fresh").open()) {
			pool.apply(ONE_MS, 1).block(LONG);
			return (System.nanoTime() - start) / 1e9;
		}
	}

	private static double secondsToRecover(Fiber fiber, int workers, int killSeconds) {
		FiberPool pool = fiber.pool(workers).name("hunted").open().retry(Retry.indefinitely().filter(WorkerLostException.class::isInstance));
		AtomicLong lastResult = new AtomicLong();
		java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
		Disposable work = pool.mapUnordered(ONE_MS, Flux.range(0, Integer.MAX_VALUE))
				.subscribe(x -> lastResult.set(System.nanoTime()), failed::set);
		try {
			pool.apply(ONE_MS, 0).block(LONG);
			AtomicInteger kills = new AtomicInteger();
			Disposable killer = Flux.interval(Duration.ZERO, Duration.ofMillis(300), Schedulers.boundedElastic())
					.subscribe(tick -> ProcessHandle.current().children()
							.filter(child -> child.info().command().map(command -> command.endsWith("/java")).orElse(false)).forEach(child -> {
						if (child.destroyForcibly()) {
							kills.incrementAndGet();
						}
					}));
			sleep(Duration.ofSeconds(killSeconds));
			killer.dispose();
			long stopped = System.nanoTime();
			long deadline = stopped + LONG.toNanos();
			while (lastResult.get() < stopped) {
				if (failed.get() != null || System.nanoTime() > deadline) {
					throw new IllegalStateException("the pool did not recover within " + LONG, failed.get());
				}
				sleep(Duration.ofMillis(5));
			}
			System.out.printf(Locale.ROOT, "  %d kills in %d s; workers lost %d%n", kills.get(), killSeconds, pool.stats().workersLost());
			return (lastResult.get() - stopped) / 1e9;
		}
		finally {
			work.dispose();
			pool.terminate();
		}
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(e);
		}
	}

	private static double median(List<Double> values) {
		List<Double> sorted = values.stream().sorted().toList();
		return sorted.get(sorted.size() / 2);
	}
}
