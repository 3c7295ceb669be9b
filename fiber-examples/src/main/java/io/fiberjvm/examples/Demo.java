package io.fiberjvm.examples;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;

/**
 * The README's main job: starts job-backed processes on the local backend (child JVMs), each
 * estimating pi by Monte Carlo, prints what each one reported, then shows how a failing target's
 * remote stack trace reaches the parent.
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
		SplittableRandom random = new SplittableRandom(seed);
		long inside = 0;
		for (long i = 0; i < samples; i++) {
			double x = random.nextDouble();
			double y = random.nextDouble();
			if (x * x + y * y <= 1) {
				inside++;
			}
		}
		System.out.printf("pid %d: pi ~ %.6f%n", ProcessHandle.current().pid(), 4.0 * inside / samples);
	}
}
