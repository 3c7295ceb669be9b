package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;

/**
 * What a program waits for before its first job: {@code Fiber.open()} in a fresh JVM, then from {@code open()}'s
 * return to a first no-op process having run (its child JVM started, connected, and ended); beside it, in the same
 * run, the floor of the libraries Fiber stands on: a fresh JVM's first {@code Mono} and its first SLF4J logger.
 * Each figure is the median over fresh JVMs. Run:
 * {@code java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.OpenTimeHarness [--runs 11]}.
 */
public final class OpenTimeHarness {

	private OpenTimeHarness() {
	}

	public static void main(String[] args) throws IOException, InterruptedException {
		int runs = HarnessArgs.intOption(args, "--runs", 11);
		List<Double> open = new ArrayList<>();
		List<Double> firstJob = new ArrayList<>();
		List<Double> floor = new ArrayList<>();
		for (int i = 0; i < runs; i++) {
			String[] fiber = probe("fiber");
			open.add(Double.parseDouble(fiber[0]));
			firstJob.add(Double.parseDouble(fiber[1]));
			floor.add(Double.parseDouble(probe("floor")[0]));
		}
		System.out.printf("| runs | Fiber.open(), ms | open to first job ended, ms | floor: first Mono and logger, ms | open / floor |%n");
		System.out.printf("|---|---|---|---|---|%n");
		System.out.printf("| %d | %.0f | %.0f | %.0f | %.2f× |%n", runs, Measures.median(open), Measures.median(firstJob),
				Measures.median(floor), Measures.median(open) / Measures.median(floor));
	}

	/** Runs one fresh probe JVM; returns the figures it printed on its last line. */
	private static String[] probe(String what) throws IOException, InterruptedException {
		return ProbeJvm.lastLine(Probe.class, what).split(" ");
	}

	/** One fresh JVM: prints, in milliseconds, the open and the first job ({@code fiber}), or the floor ({@code floor}). */
	public static final class Probe {

		private Probe() {
		}

		public static void main(String[] args) {
			long start = System.nanoTime();
			if (args[0].equals("floor")) {
				Mono.just(1).map(i -> i + 1).block();
				org.slf4j.LoggerFactory.getLogger(Probe.class).debug("floor");
				System.out.println((System.nanoTime() - start) / 1e6);
				return;
			}
			try (Fiber fiber = Fiber.open()) {
				long opened = System.nanoTime();
				FiberProcess noop = fiber.process(Noop.class).name("noop").start().block(Duration.ofMinutes(2));
				noop.join().block(Duration.ofMinutes(2));
				long ran = System.nanoTime();
				System.out.println((opened - start) / 1e6 + " " + (ran - opened) / 1e6);
			}
		}
	}

	/** A job that does nothing. */
	public static final class Noop implements Runnable {

		@Override
		public void run() {
			// Nothing: the start is what is measured.
		}
	}
}
