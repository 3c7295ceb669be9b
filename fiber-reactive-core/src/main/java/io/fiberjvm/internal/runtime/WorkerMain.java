package io.fiberjvm.internal.runtime;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.LogKeys;
import io.fiberjvm.RemoteException;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.internal.frames.EmptyFrame;
import io.fiberjvm.internal.frames.OutcomeFrame;
import io.fiberjvm.internal.frames.TargetFrame;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;

/**
 * The entry point of a job-backed process: {@code WorkerMain process <parent host:port> <job id>}.
 *
 * <p>It reads the run's secret from {@code FIBER_RUN_SECRET} and its configuration from the inherited
 * {@code FIBER_*} environment, joins the run with a runtime of its own, connects back to its parent, fetches
 * its target, runs it with that runtime, reports how it ended and exits: 0 when the target returned, 1 when it
 * threw. The parent may answer the report of a target that returned with the next target for this JVM (a pool
 * worker's JVM kept idle for the next pool), which it then runs in turn. When the connection to the parent closes
 * first (the parent died, or stopped answering keep-alives) it halts at once with exit code 75, so no child outlives
 * its parent.
 */
public final class WorkerMain {

	/** The first argument: what the process is. */
	static final String PROCESS = "process";

	private static volatile boolean finishing;

	private WorkerMain() {
	}

	public static void main(String[] given) {
		// A launcher in front (Spring Boot's, with loader.args) may put words of its own before Fiber's three.
		String[] args = given.length >= 3 ? java.util.Arrays.copyOfRange(given, given.length - 3, given.length) : given;
		if (args.length != 3 || !args[0].equals(PROCESS)) {
			fail("usage: WorkerMain process <parent host:port> <job id>");
		}
		String secret = System.getenv(JobSpec.SECRET_ENV);
		if (secret == null || secret.isEmpty()) {
			fail("no " + JobSpec.SECRET_ENV + " in the environment: a job-backed process is started by its parent");
		}
		Connection connection;
		FiberConfig config;
		FiberRuntime runtime;
		try {
			config = FiberConfig.resolve(Map.of(), System.getProperties(), System.getenv(), Path.of(FiberConfig.FILE_NAME));
			Endpoint parent = Endpoint.parse(args[1]);
			runtime = FiberRuntime.join(config, secret, args[2], parent);
			// Who this process is (the parent set fiber.run and fiber.process on its command line; see LogKeys).
			LogKeys.identifyThread();
			connection = Objects.requireNonNull(runtime.connectionTo(parent).block(config.get(ConfigKeys.START_TIMEOUT)), "a connection");
		}
		catch (RuntimeException e) {
			e.printStackTrace();
			fail("cannot connect to parent " + args[1] + ": " + e.getMessage());
			return;
		}
		connection.onClose().doFinally(signal -> parentLost()).subscribe(done -> { }, error -> { });
		Duration timeout = config.get(ConfigKeys.START_TIMEOUT);

		// A reusable target's JVM may wait this long for the next one after reporting its outcome.
		Duration nextTimeout = timeout.plus(config.get(ConfigKeys.WORKER_IDLE_TIME));

		String error = null;
		byte[] next = null;
		try {
			next = connection.requestResponse(ChildProtocol.TARGET, EmptyFrame.encode()).block(timeout);
			if (next == null) {
				throw new IllegalStateException("the parent sent no target");
			}
		}
		catch (Throwable t) {
			error = outcome(t, config);
		}
		do {
			if (next != null) {
				error = run(runtime, config, next);
			}
			next = report(connection, error, nextTimeout);
		}
		while (next != null);
		finishing = true;
		connection.dispose();
		System.exit(error == null ? 0 : ChildProtocol.EXIT_TARGET_FAILED);
	}

	/** Runs the target in {@code frame}: null when it returned, else its error as the outcome carries it. */
	private static @Nullable String run(FiberRuntime runtime, FiberConfig config, byte[] frame) {
		try {
			TargetFrame shipped = TargetFrame.decode(frame);
			runtime.values().readFunction(shipped.target(), shipped.allow(), ProcessTarget.class, "this process's target").run(runtime);
			return null;
		}
		catch (Throwable t) {
			return outcome(t, config);
		}
	}

	/** {@code t} as the outcome carries it, printed to this process's output first. */
	private static String outcome(Throwable t, FiberConfig config) {
		t.printStackTrace();
		// The outcome must fit a frame, with room for the frame around it.
		return RemoteException.encode(t, Math.toIntExact(config.get(ConfigKeys.MAX_FRAME_SIZE)) - 1024);
	}

	/**
	 * Reports the outcome {@code error} (null: the target returned) and returns the next target the parent answers
	 * with (after a target that returned, for a JVM it keeps), or null when this process is to exit.
	 */
	private static byte @Nullable [] report(Connection connection, @Nullable String error, Duration timeout) {
		try {
			byte[] answer = Objects.requireNonNull(connection.requestResponse(ChildProtocol.OUTCOME, new OutcomeFrame(error).encode())
					.block(timeout), "the parent's answer");
			if (error == null && TargetFrame.isTarget(answer)) {
				return answer;
			}
			EmptyFrame.check(answer);
		}
		catch (RuntimeException e) {
			System.err.println("could not report the outcome to the parent: " + e);
		}
		return null;
	}

	private static void parentLost() {
		if (!finishing) {
			System.err.println("fiber: lost the connection to the parent; exiting");
			System.err.flush();
			Runtime.getRuntime().halt(ChildProtocol.EXIT_PARENT_LOST);
		}
	}

	private static void fail(String message) {
		System.err.println("fiber: " + message);
		System.exit(ChildProtocol.EXIT_CANNOT_START);
	}
}
