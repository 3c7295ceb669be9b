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
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.Shared;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.pool.FiberPool;

/**
 * A large value's round trip through {@code pool.apply} (a {@code double[]} out to a worker JVM and back),
 * through a manager's method and as a shared value (shared, fetched by a worker, sent back as its result), against a raw loopback socket moving the same bytes to another JVM and back, in one
 * run; with the peak resident memory of the program and of the worker.
 *
 * <p>The contract: the four take turns, one round trip each and each first in turn, so that all meet the
 * program's heap in the same state: a collector that grows the heap for each new large array instead of
 * collecting puts every one on pages the kernel faults in afresh, a cost of the heap's state at the time and
 * not of any one of them.
 * Each gets {@code --warmups} round trips (5), then {@code --runs} timed ones (15); the report gives the
 * median of each and the ratio raw / it (1.0 would be as fast as the socket). The raw
 * side's peer is {@link RawEcho} in a JVM of its own, which reads a length-prefixed message into an array
 * and writes it back, as a worker reads an argument and sends a result; the raw side reads the answer
 * into a new array too, as {@code pool.apply} gives the caller a new {@code double[]}. The manager is an
 * {@link AsyncManager} whose object gives its argument back ({@link Echo}). Peak memory is
 * {@code VmHWM} of {@code /proc}, read before the first round trip and after the runs.
 *
 * <pre>
 * java -Xmx4g -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.BigValueHarness [--mib 64] [--runs 15] [--warmups 5]
 * </pre>
 */
public final class BigValueHarness {

	private BigValueHarness() {
	}

	public static void main(String[] args) throws Exception {
		int mib = HarnessArgs.intOption(args, "--mib", 64);
		int runs = HarnessArgs.intOption(args, "--runs", 15);
		int warmups = HarnessArgs.intOption(args, "--warmups", 5);
		double[] value = new double[mib * 1024 * 1024 / 8];
		Arrays.setAll(value, i -> i);

		List<Double> raw = new ArrayList<>();
		List<Double> fiber = new ArrayList<>();
		List<Double> managed = new ArrayList<>();
		List<Double> shared = new ArrayList<>();
		long programPeak;
		long workerPeak;
		long programBefore;
		long workerBefore;
		try (RawRoundTrip socket = new RawRoundTrip(value.length * 8);
				Fiber session = Fiber.builder().set("jvm-options", (System.getProperty("fiber.jvm-options", "")
						+ " -Xmx" + Math.max(1024, value.length * 8L * 6 / (1 << 20)) + "m").strip()).open();
				FiberPool pool = session.pool(1).open()) {
			FiberFunction<double[], double[]> identity = v -> v;
			Echo echo = AsyncManager.on(session).register(Echo.class, EchoObject.class).start().blockOptional()
					.orElseThrow().create(Echo.class);
			List<RoundTrip> sides = List.of(socket::seconds, () -> seconds(value, () -> pool.apply(identity, value).block()),
					() -> seconds(value, () -> echo.echo(value).block()), () -> seconds(value, () -> viaShared(session, pool, value)));
			List<List<Double>> times = List.of(raw, fiber, managed, shared);
			// Before any value has crossed: what each JVM takes without one (the program holds the value itself), once
			// the worker has answered a small task.
			FiberFunction<Integer, Integer> same = n -> n;
			pool.apply(same, 0).block();
			programBefore = peakMiB(ProcessHandle.current().pid());
			workerBefore = peakMiB(pool.workers().get(0).pid().orElse(-1));
			for (int i = 0; i < warmups + runs; i++) {
				// Each goes first in turn, so none always meets the heap another left.
				for (int k = 0; k < sides.size(); k++) {
					int side = (i + k) % sides.size();
					double seconds = sides.get(side).seconds();
					if (i >= warmups) {
						times.get(side).add(seconds);
					}
				}
			}
			programPeak = peakMiB(ProcessHandle.current().pid());
			workerPeak = peakMiB(pool.workers().get(0).pid().orElse(-1));
		}
		double rawMedian = Measures.median(raw);
		double fiberMedian = Measures.median(fiber);
		double managerMedian = Measures.median(managed);
		double sharedMedian = Measures.median(shared);

		System.out.printf(Locale.ROOT, "| %d MiB double[] round trip | median of %d | ratio raw / this |%n", mib, runs);
		System.out.printf(Locale.ROOT, "|---|---|---|%n");
		System.out.printf(Locale.ROOT, "| raw loopback socket, JVM to JVM | %.3f s | 1.00 |%n", rawMedian);
		System.out.printf(Locale.ROOT, "| `pool.apply(identity, value)` | %.3f s | %.2f |%n", fiberMedian, rawMedian / fiberMedian);
		System.out.printf(Locale.ROOT, "| manager call `echo(value)` | %.3f s | %.2f |%n", managerMedian, rawMedian / managerMedian);
		System.out.printf(Locale.ROOT, "| `fiber.share(value)`, fetched by a worker, its result | %.3f s | %.2f |%n", sharedMedian,
				rawMedian / sharedMedian);
		System.out.printf(Locale.ROOT, "%npeak RSS: program %d MiB (%d before the first round trip), worker %d MiB (%d before)"
				+ " (value %d MiB)%n", programPeak, programBefore, workerPeak, workerBefore, mib);
	}

	/** One side's round trip. */
	@FunctionalInterface
	private interface RoundTrip {

		/** Seconds one round trip takes. */
		double seconds() throws IOException;
	}

	/** Seconds {@code roundTrip} takes, having checked that it gave {@code value} back. */
	private static double seconds(double[] value, Supplier<double @Nullable []> roundTrip) {
		long start = System.nanoTime();
		double[] back = roundTrip.get();
		double seconds = (System.nanoTime() - start) / 1e9;
		if (back == null || back.length != value.length || back[back.length - 1] != value[value.length - 1]) {
			throw new IllegalStateException("the value came back wrong");
		}
		return seconds;
	}

	/** {@code value} shared, fetched by the worker and sent back as its task's result; then released. */
	private static double @Nullable [] viaShared(Fiber session, FiberPool pool, double[] value) {
		Shared<double[]> shared = session.share(value);
		FiberFunction<Integer, double[]> fetch = n -> shared.get();
		try {
			return pool.apply(fetch, 0).block();
		}
		finally {
			shared.release().block();
		}
	}

	/** The manager's interface: its object's argument, back. */
	public interface Echo {

		Mono<double[]> echo(double[] value);
	}

	/** The manager's object. */
	public static final class EchoObject {

		public double[] echo(double[] value) {
			return value;
		}
	}

	/** The raw side: a socket to a {@link RawEcho} JVM, one length-prefixed message out and back per round trip. */
	private static final class RawRoundTrip implements AutoCloseable {

		private final ServerSocket listen;
		private final Process echo;
		private final Socket socket;
		private final DataOutputStream out;
		private final DataInputStream in;
		private final byte[] message;

		RawRoundTrip(int bytes) throws IOException {
			this.listen = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
			Process started = null;
			try {
				// A peer that never connects fails the run instead of holding it.
				listen.setSoTimeout(60_000);
				started = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
						"-Xmx" + Math.max(512, bytes * 3L / (1 << 20)) + "m", "-cp", System.getProperty("java.class.path"),
						RawEcho.class.getName(), Integer.toString(listen.getLocalPort())).inheritIO().start();
				this.socket = listen.accept();
			}
			catch (IOException | RuntimeException e) {
				if (started != null) {
					started.destroyForcibly();
				}
				listen.close();
				throw e;
			}
			this.echo = started;
			socket.setTcpNoDelay(true);
			this.out = new DataOutputStream(socket.getOutputStream());
			this.in = new DataInputStream(socket.getInputStream());
			this.message = new byte[bytes];
		}

		double seconds() throws IOException {
			long start = System.nanoTime();
			out.writeInt(message.length);
			out.write(message);
			out.flush();
			byte[] back = new byte[in.readInt()];
			in.readFully(back);
			return (System.nanoTime() - start) / 1e9;
		}

		@Override
		public void close() throws Exception {
			try (listen; socket) {
				out.writeInt(-1);
				out.flush();
			}
			finally {
				if (!echo.waitFor(60, TimeUnit.SECONDS)) {
					echo.destroyForcibly();
				}
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
