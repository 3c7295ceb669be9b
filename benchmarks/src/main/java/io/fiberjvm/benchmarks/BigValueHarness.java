package io.fiberjvm.benchmarks;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.pool.FiberPool;

/**
 * A large value's round trip through {@code pool.apply} (a {@code double[]} out to a worker JVM and back)
 * against a raw loopback socket moving the same bytes to another JVM and back, in one run; with the peak
 * resident memory of the program and of the worker.
 *
 * <p>The contract: each side gets {@code --warmups} round trips (3), then {@code --runs} timed ones (7); the
 * report gives the median of each and the ratio raw / Fiber (1.0 would be as fast as the socket). The raw
 * side's peer is {@link RawEcho} in a JVM of its own, which reads a length-prefixed message into an array
 * and writes it back, as a worker reads an argument and sends a result. Peak memory is {@code VmHWM} of
 * {@code /proc}, read after the runs.
 *
 * <pre>
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.BigValueHarness [--mib 64] [--runs 7] [--warmups 3]
 * </pre>
 */
public final class BigValueHarness {

	private BigValueHarness() {
	}

	public static void main(String[] args) throws Exception {
		int mib = HarnessArgs.intOption(args, "--mib", 64);
		int runs = HarnessArgs.intOption(args, "--runs", 7);
		int warmups = HarnessArgs.intOption(args, "--warmups", 3);
		double[] value = new double[mib * 1024 * 1024 / 8];
		Arrays.setAll(value, i -> i);

		double raw = rawSeconds(value.length * 8, runs, warmups);
		double[] fiber = fiberSeconds(value, runs, warmups);

		System.out.printf(Locale.ROOT, "| %d MiB double[] round trip | median of %d | ratio raw / this |%n", mib, runs);
		System.out.printf(Locale.ROOT, "|---|---|---|%n");
		System.out.printf(Locale.ROOT, "| raw loopback socket, JVM to JVM | %.3f s | 1.00 |%n", raw);
		System.out.printf(Locale.ROOT, "| `pool.apply(identity, value)` | %.3f s | %.2f |%n", fiber[0], raw / fiber[0]);
		System.out.printf(Locale.ROOT, "%npeak RSS: program %d MiB, worker %d MiB (value %d MiB)%n", (long) fiber[1], (long) fiber[2], mib);
	}

	private static double[] fiberSeconds(double[] value, int runs, int warmups) {
		try (Fiber fiber = Fiber.builder().set("jvm-options", (System.getProperty("fiber.jvm-options", "")
				+ " -Xmx" + Math.max(1024, value.length * 8L * 6 / (1 << 20)) + "m").strip()).open();
				FiberPool pool = fiber.pool(1).open()) {
			FiberFunction<double[], double[]> identity = v -> v;
			List<Double> times = new ArrayList<>();
			for (int i = 0; i < warmups + runs; i++) {
				long start = System.nanoTime();
				double[] back = pool.apply(identity, value).block();
				long took = System.nanoTime() - start;
				if (back == null || back.length != value.length || back[back.length - 1] != value[value.length - 1]) {
					throw new IllegalStateException("the value came back wrong");
				}
				if (i >= warmups) {
					times.add(took / 1e9);
				}
			}
			long worker = pool.workers().get(0).pid().orElse(-1);
			return new double[] {Measures.median(times), peakMiB(ProcessHandle.current().pid()), peakMiB(worker)};
		}
	}

	private static double rawSeconds(int bytes, int runs, int warmups) throws Exception {
		try (ServerSocket listen = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			Process echo = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
					"-Xmx" + Math.max(512, bytes * 3L / (1 << 20)) + "m", "-cp", System.getProperty("java.class.path"),
					RawEcho.class.getName(), Integer.toString(listen.getLocalPort())).inheritIO().start();
			try (Socket socket = listen.accept()) {
				socket.setTcpNoDelay(true);
				DataOutputStream out = new DataOutputStream(socket.getOutputStream());
				DataInputStream in = new DataInputStream(socket.getInputStream());
				byte[] message = new byte[bytes];
				List<Double> times = new ArrayList<>();
				for (int i = 0; i < warmups + runs; i++) {
					long start = System.nanoTime();
					out.writeInt(bytes);
					out.write(message);
					out.flush();
					byte[] back = new byte[in.readInt()];
					in.readFully(back);
					long took = System.nanoTime() - start;
					if (i >= warmups) {
						times.add(took / 1e9);
					}
				}
				out.writeInt(-1);
				out.flush();
				return Measures.median(times);
			}
			finally {
				echo.waitFor();
			}
		}
	}

	/** The raw side's peer: reads each length-prefixed message into an array of its own and writes it back. */
	public static final class RawEcho {

		private RawEcho() {
		}

		public static void main(String[] args) throws IOException {
			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(args[0]))) {
				socket.setTcpNoDelay(true);
				InputStream rawIn = socket.getInputStream();
				OutputStream rawOut = socket.getOutputStream();
				DataInputStream in = new DataInputStream(rawIn);
				DataOutputStream out = new DataOutputStream(rawOut);
				int length;
				while ((length = in.readInt()) >= 0) {
					byte[] message = new byte[length];
					in.readFully(message);
					out.writeInt(length);
					out.write(message);
					out.flush();
				}
			}
		}
	}

	private static long peakMiB(long pid) {
		try {
			long kib = Measures.procStatusKiB(pid, "VmHWM:");
			return kib < 0 ? -1 : kib / 1024;
		}
		catch (IOException | RuntimeException e) {
			return -1;
		}
	}
}
