package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.openjdk.jmh.infra.Blackhole;

/**
 * What each codec candidate costs a fresh JVM, as a new worker pays it: the first record written and read
 * back (class loading, building the codec, generating serializers), and the whole process's wall time, the
 * median of several fresh JVMs each. Run: {@code java -cp benchmarks.jar io.fiberjvm.benchmarks.CodecStartupHarness [runs]}.
 */
public final class CodecStartupHarness {

	private static final List<String> CODECS = List.of("fiber", "smile", "jdk", "fory", "fory-interpreted");

	private CodecStartupHarness() {
	}

	public static void main(String[] args) throws IOException, InterruptedException {
		int runs = args.length > 0 ? Integer.parseInt(args[0]) : 7;
		System.out.println("| codec | first record round trip, ms (median of " + runs + ") | JVM start to exit, ms |");
		System.out.println("|---|---|---|");
		for (String codec : CODECS) {
			List<Double> first = new ArrayList<>();
			List<Double> whole = new ArrayList<>();
			for (int i = 0; i < runs; i++) {
				long start = System.nanoTime();
				String roundTrip = ProbeJvm.lastLine(Probe.class, codec);
				whole.add((System.nanoTime() - start) / 1e6);
				first.add(Double.parseDouble(roundTrip));
			}
			System.out.printf("| %s | %.0f | %.0f |%n", codec, Measures.median(first), Measures.median(whole));
		}
	}

	/** One fresh JVM: prints the milliseconds its first record round trip took. */
	public static final class Probe {

		private Probe() {
		}

		public static void main(String[] args) {
			long start = System.nanoTime();
			CodecBenchmark bench = new CodecBenchmark();
			bench.codec = args[0];
			bench.value = "record";
			bench.prepare();
			double ms = (System.nanoTime() - start) / 1e6;
			new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.")
					.consume(bench.roundTrip());
			System.out.println(ms);
		}
	}
}
