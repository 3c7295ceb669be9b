package io.fiberjvm.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

import io.fiberjvm.Fiber;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.ring.ReduceOp;

/**
 * All-reduce bandwidth: {@code --floats} floats (1 M) all-reduced across {@code --members} members (4),
 * against the same bytes streamed point to point between two JVMs (rank 0 broadcasting to rank 1 of a
 * ring of two, over the same transport), in one run.
 *
 * <p>Also all-reduce across 2 members, where on a 2-core machine each member has a core of its own.
 * Each member of a ring all-reduce sends {@code 2 (n - 1) / n} of its array; the figure per member
 * is those bytes over the time of one all-reduce (the mean of {@code --rounds} rounds after as many
 * warm-up rounds, timed inside the members). The point-to-point figure is the array's bytes over the
 * time of one broadcast to one peer. Prints Markdown and writes {@code --out/ring-allreduce.md}.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.RingAllReduceHarness [--members 4] [--floats 1000000] [--rounds 20]
 * </pre>
 */
public final class RingAllReduceHarness {

	private static final Duration LONG = Duration.ofMinutes(5);

	private RingAllReduceHarness() {
	}

	public static void main(String[] args) throws Exception {
		int members = 4;
		int floats = 1_000_000;
		int rounds = 20;
		Path out = Path.of("benchmarks", "results");
		for (int i = 0; i < args.length; i++) {
			switch (args[i]) {
				case "--members" -> members = Integer.parseInt(args[++i]);
				case "--floats" -> floats = Integer.parseInt(args[++i]);
				case "--rounds" -> rounds = Integer.parseInt(args[++i]);
				case "--out" -> out = Path.of(args[++i]);
				default -> throw new IllegalArgumentException("unknown option " + args[i] + " (--members N, --floats N, --rounds N, --out DIR)");
			}
		}
		try (Fiber fiber = Fiber.open()) {
			double allReduceSeconds = time(fiber, members, floats, rounds, true);
			double pairSeconds = time(fiber, 2, floats, rounds, true);
			double pointToPointSeconds = time(fiber, 2, floats, rounds, false);
			double bytes = floats * (double) Float.BYTES;
			double perMember = 2.0 * (members - 1) / members * bytes / allReduceSeconds / 1e9;
			double perPairMember = bytes / pairSeconds / 1e9;
			double stream = bytes / pointToPointSeconds / 1e9;
			String report = String.format(Locale.ROOT, """
					| %,d floats (%.1f MB), mean of %d rounds, %d cores | time | GB/s per member | / point to point |
					|---|---|---|---|
					| all-reduce (sum) across %d members | %.1f ms | %.3f | %.2f× |
					| all-reduce (sum) across 2 members | %.1f ms | %.3f | %.2f× |
					| point to point, one JVM to another (baseline) | %.1f ms | %.3f | 1.00× |
					""", floats, bytes / 1e6, rounds, Runtime.getRuntime().availableProcessors(), members, allReduceSeconds * 1e3,
					perMember, perMember / stream, pairSeconds * 1e3, perPairMember, perPairMember / stream,
					pointToPointSeconds * 1e3, stream);
			System.out.print(report);
			Files.createDirectories(out);
			Files.writeString(out.resolve("ring-allreduce.md"), report);
		}
	}

	/** The mean seconds of one round as rank 0 measured it, after as many warm-up rounds. */
	private static double time(Fiber fiber, int members, int floats, int rounds, boolean allReduce) {
		FiberQueue<Double> seconds = fiber.queue(Double.class, 4);
		fiber.ring(members).name(allReduce ? "allreduce" : "p2p").run(ring -> {
			float[] data = new float[floats];
			java.util.Arrays.fill(data, ring.rank() + 1);
			long total = 0;
			for (int round = -rounds; round < rounds; round++) {
				ring.barrier().block();
				long start = System.nanoTime();
				if (allReduce) {
					ring.allReduce(data, ReduceOp.SUM).block();
				}
				else {
					ring.broadcast(ring.rank() == 0 ? data : null).block();
					// The receiver's arrival ends the round for the sender too.
					ring.barrier().block();
				}
				if (round >= 0) {
					total += System.nanoTime() - start;
				}
			}
			if (ring.rank() == 0) {
				seconds.put(total / 1e9 / rounds).block();
			}
		}).block(LONG);
		double measured = seconds.take().block(LONG);
		System.err.printf(Locale.ROOT, "%s: %.2f ms per round%n", allReduce ? "all-reduce" : "point to point", measured * 1e3);
		return measured;
	}
}
