package io.fiberjvm.worker;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.fiberjvm.Fiber;
import io.fiberjvm.LogKeys;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.Codec;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Messenger;

/**
 * The entry point of a job-backed process: {@code WorkerMain process <parent host:port> <job id>}.
 *
 * <p>It reads the run's secret from {@code FIBER_RUN_SECRET} and its configuration from the inherited
 * {@code FIBER_*} environment, connects back to its parent, fetches its target, runs it, reports how it
 * ended and exits: 0 when the target returned, 1 when it threw. When the connection to the parent
 * closes first (the parent died, or stopped answering keep-alives) it halts at once with exit code 75,
 * so no child outlives its parent.
 */
public final class WorkerMain {

	private static volatile boolean finishing;

	private WorkerMain() {
	}

	public static void main(String[] args) {
		if (args.length != 3 || !args[0].equals("process")) {
			fail("usage: WorkerMain process <parent host:port> <job id>");
		}
		String secret = System.getenv(WorkerRoutes.SECRET_ENV);
		if (secret == null || secret.isEmpty()) {
			fail("no " + WorkerRoutes.SECRET_ENV + " in the environment: a job-backed process is started by its parent");
		}
		Connection connection;
		FiberConfig config;
		Fiber runtime;
		try {
			config = FiberConfig.resolve(Map.of(), System.getProperties(), System.getenv(), Path.of(FiberConfig.FILE_NAME));
			runtime = Fiber.joinRun(config, secret, args[2]);
			// Who this process is (the parent set fiber.run and fiber.process on its command line; see LogKeys).
			LogKeys.identifyThread();
			connection = runtime.connectionTo(Endpoint.parse(args[1])).block(config.get(ConfigKeys.START_TIMEOUT));
		}
		catch (RuntimeException e) {
			e.printStackTrace();
			fail("cannot connect to parent " + args[1] + ": " + e.getMessage());
			return;
		}
		connection.onClose().doFinally(signal -> parentLost()).subscribe(done -> { }, error -> { });
		Messenger parent = Messenger.over(connection, Codec.smile());
		Duration timeout = config.get(ConfigKeys.START_TIMEOUT);

		String error = null;
		try {
			ShippedTarget shipped = parent.request(WorkerRoutes.TARGET, args[2], ShippedTarget.class).block(timeout);
			List<String> allow = config.get(ConfigKeys.SERIAL_ALLOW);
			Runnable target = runtime.resolvingHandles(() -> shipped.materialize(allow));
			target.run();
		}
		catch (Throwable t) {
			t.printStackTrace();
			// The outcome must fit a frame, with room for the record around it.
			error = RemoteException.encode(t, Math.toIntExact(config.get(ConfigKeys.MAX_FRAME_SIZE)) - 1024);
		}
		try {
			parent.request(WorkerRoutes.OUTCOME, new Outcome(error), Boolean.class).block(timeout);
		}
		catch (RuntimeException e) {
			System.err.println("could not report the outcome to the parent: " + e);
		}
		finishing = true;
		connection.dispose();
		System.exit(error == null ? 0 : WorkerRoutes.EXIT_TARGET_FAILED);
	}

	private static void parentLost() {
		if (!finishing) {
			System.err.println("fiber: lost the connection to the parent; exiting");
			System.err.flush();
			Runtime.getRuntime().halt(WorkerRoutes.EXIT_PARENT_LOST);
		}
	}

	private static void fail(String message) {
		System.err.println("fiber: " + message);
		System.exit(WorkerRoutes.EXIT_CANNOT_START);
	}
}
