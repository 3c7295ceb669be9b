package io.fiberjvm.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;

/**
 * From "start a job-backed process" to its first message reaching the parent (the child asking for
 * its target), against the floor: starting a plain JVM on the same classpath and reading the first
 * line it prints.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 15)
@Fork(1)
@State(Scope.Benchmark)
public class ProcessStartBenchmark {

	private static final Duration WAIT = Duration.ofSeconds(60);

	private Fiber fiber;
	private FiberProcess lastProcess;
	private Process lastPlain;

	/** The target of the measured process: returns at once. */
	public static final class Noop implements Runnable {
		@Override
		public void run() {
		}
	}

	/** The plain JVM's main: one line. */
	public static final class Hello {
		public static void main(String[] args) {
			System.out.println("hello");
		}
	}

	@Setup(Level.Trial)
	public void open() {
		fiber = Fiber.open();
		// Bind the parent's server before measuring.
		fiber.address().block(WAIT);
	}

	@TearDown(Level.Invocation)
	public void reap() throws InterruptedException {
		if (lastProcess != null) {
			lastProcess.onExit().block(WAIT);
			lastProcess = null;
		}
		if (lastPlain != null) {
			lastPlain.waitFor(60, TimeUnit.SECONDS);
			lastPlain = null;
		}
	}

	@TearDown(Level.Trial)
	public void close() {
		fiber.close();
	}

	@Benchmark
	public void fiberProcessToFirstMessage() {
		lastProcess = fiber.process(Noop.class).start().block(WAIT);
		lastProcess.onRunning().block(WAIT);
	}

	@Benchmark
	public String plainJvmToFirstLine() throws IOException {
		lastPlain = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-cp", System.getProperty("java.class.path"), Hello.class.getName())).start();
		BufferedReader out = new BufferedReader(new InputStreamReader(lastPlain.getInputStream(), StandardCharsets.UTF_8));
		return out.readLine();
	}
}
