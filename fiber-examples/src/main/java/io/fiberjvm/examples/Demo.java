package io.fiberjvm.examples;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.progress.Progress;
import io.fiberjvm.progress.ProgressBar;
import io.fiberjvm.queue.FiberQueue;

/**
 * The README's main job: starts job-backed processes on the local backend (child JVMs), each
 * estimating pi by Monte Carlo, prints what each one reported; does the same work through queues that
 * worker processes pull from, and through a pool; then shows how a failing target's remote stack trace reaches the parent.
 */
public final class Demo {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private Demo() {
	}

	public static void main(String[] args) {
		int workers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
		long samples = args.length > 1 ? Long.parseLong(args[1]) : 5_000_000L;
		try (Fiber fiber = Fiber.open()) {
			System.out.printf("Fiber run %s: %d job-backed processes on the %s backend, %,d samples each%n",
					fiber.runId(), workers, fiber.backendName(), samples);
			long start = System.nanoTime();
			List<FiberProcess> processes = Flux.range(0, workers)
					.flatMap(seed -> fiber.process(() -> estimatePi(seed, samples)).name("pi-" + seed).start())
					.collectList()
					.block(WAIT);
			Flux.fromIterable(processes)
					.flatMap(p -> p.join().then(p.onExit()).flatMapMany(code -> p.logs().map(line -> p.name() + " exit=" + code + " | " + line)))
					.doOnNext(System.out::println)
					.then()
					.block(WAIT);
			System.out.printf("all %d processes done in %d ms%n", workers, (System.nanoTime() - start) / 1_000_000);

			// The same work through queues: processes pull chunks of samples and send back counts.
			FiberQueue<Long> chunks = fiber.queue(Long.class, 64);
			FiberQueue<long[]> counts = fiber.queue(long[].class);
			// All started together, and all running before the chunks go out, so no worker comes to the queue after it closed.
			Flux.range(0, workers)
					.flatMap(w -> fiber.process(() -> chunks.receive(2)
							.doOnNext(seed -> counts.put(new long[] {countInside(seed, samples / 10), samples / 10}).block())
							.then().block()).name("worker-" + w).start())
					.flatMap(FiberProcess::onRunning)
					.then()
					.block(WAIT);
			long queued = System.nanoTime();
			chunks.send(Flux.range(0, workers * 10).map(Integer::longValue)).block(WAIT);
			long[] total = counts.receive().take(workers * 10L)
					.reduce(new long[2], (sum, c) -> new long[] {sum[0] + c[0], sum[1] + c[1]})
					.block(WAIT);
			chunks.closeAsync().block(WAIT);
			System.out.printf("through queues: %d chunks, pi ~ %.6f from %,d samples in %d ms%n", workers * 10,
					4.0 * total[0] / total[1], total[1], (System.nanoTime() - queued) / 1_000_000);

			// The same work through a pool: map over seeds, results in order; the pool chunks and retries.
			// Its progress shows as a bar redrawn in place on a terminal, as plain lines elsewhere.
			try (FiberPool pool = fiber.pool(workers).name("pi").open()) {
				long pooled = System.nanoTime();
				long tasks = workers * 50L;
				long perTask = samples / 50;
				Progress progress = Progress.expecting(tasks);
				progress.snapshots().subscribe(ProgressBar.toConsole());
				long inside = pool.map((FiberFunction<Long, Long>) seed -> countInside(seed, perTask), Flux.range(0, (int) tasks).map(Integer::longValue))
						.transform(progress::count)
						.reduce(0L, Long::sum)
						.block(WAIT);
				System.out.printf("through a pool: %d tasks, pi ~ %.6f from %,d samples in %d ms (workers started on demand)%n",
						tasks, 4.0 * inside / (tasks * perTask), tasks * perTask, (System.nanoTime() - pooled) / 1_000_000);
			}

			FiberProcess failing = fiber.process(() -> {
				throw new IllegalStateException("a target that throws, on purpose");
			}).name("thrower").start().block(WAIT);
			failing.join()
					.onErrorResume(ProcessFailedException.class, e -> {
						System.out.println("thrower exit=" + e.exitCode() + " | " + e.getMessage());
						StackTraceElement top = e.getCause().getStackTrace()[0];
						System.out.println("thrower remote frame | at " + top);
						return Mono.empty();
					})
					.block(WAIT);
		}
	}

	/** Runs in the child: prints the estimate, so the parent can read it from the process output. */
	static void estimatePi(long seed, long samples) {
		System.out.printf("pid %d: pi ~ %.6f%n", ProcessHandle.current().pid(), 4.0 * countInside(seed, samples) / samples);
	}

	/** How many of {@code samples} random points of the unit square fall inside the quarter circle. */
	static long countInside(long seed, long samples) {
		SplittableRandom random = new SplittableRandom(seed);
		long inside = 0;
		for (long i = 0; i < samples; i++) {
			double x = random.nextDouble();
			double y = random.nextDouble();
			if (x * x + y * y <= 1) {
				inside++;
			}
		}
		return inside;
	}
}
