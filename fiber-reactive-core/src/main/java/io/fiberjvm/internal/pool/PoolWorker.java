package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;
import reactor.core.publisher.Mono;

import io.fiberjvm.LogKeys;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.internal.frames.CancelFrame;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.WorkerOrder;
import io.fiberjvm.runtime.ParentSession;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.Outbound;

/**
 * What a pool's worker process runs: the pool's initializer, then one session with the pool per worker it
 * hosts. A session pulls chunks of tasks (at most two held at once), runs them one after another on its own
 * thread and sends their results back; every session but the first has a connection of its own. It returns
 * when the pool has ended every session, which ends the process with exit code 0, and throws as soon as one
 * session fails, which ends the process and so every session.
 */
final class PoolWorker implements ProcessTarget {

	private static final long serialVersionUID = 1L;
	/** Chunks a worker holds at once: the one it runs and the next. */
	static final int HELD_CHUNKS = 2;
	/**
	 * Frames a worker asks for up front: its chunks, and room for a cancel, which the pool sends while the worker is
	 * busy and which it asks to replace as soon as it arrives.
	 */
	static final int PREFETCH = HELD_CHUNKS + 1;

	/** One route per worker this process hosts: {@code fiber.pool-<id>/work/<worker>}. */
	private final List<String> routes;
	private final byte @Nullable [] initializer;
	private final List<String> initializerAllow;

	PoolWorker(List<String> routes, byte @Nullable [] initializer, List<String> initializerAllow) {
		this.routes = List.copyOf(routes);
		this.initializer = initializer;
		this.initializerAllow = List.copyOf(initializerAllow);
	}

	@Override
	public void run(RuntimeContext runtime) {
		Endpoint pool = runtime.parentAddress()
				.orElseThrow(() -> new IllegalStateException("a pool worker runs only in a job-backed process its pool started"));
		if (initializer != null) {
			runtime.values().readFunction(initializer, initializerAllow, Runnable.class, "the pool's initializer").run();
		}
		Duration timeout = runtime.config().get(ConfigKeys.START_TIMEOUT);
		// One thread for the deadlines of every worker of the process.
		ScheduledThreadPoolExecutor deadlines = new ScheduledThreadPoolExecutor(1, task -> {
			Thread thread = new Thread(task, "fiber-task-deadlines");
			thread.setDaemon(true);
			return thread;
		});
		// Most deadlines are disarmed long before they fall due: none may wait in the queue until then.
		deadlines.setRemoveOnCancelPolicy(true);
		try {
			serveAll(runtime, pool, timeout, deadlines);
		}
		finally {
			deadlines.shutdownNow();
		}
	}

	private void serveAll(RuntimeContext runtime, Endpoint pool, Duration timeout, ScheduledExecutorService deadlines) {
		if (routes.size() == 1) {
			serve(connect(runtime.connectionTo(pool), timeout), routes.get(0), runtime, deadlines);
			return;
		}
		// Completes when every session has ended, or at once with the first failure.
		CompletableFuture<Void> firstFailure = new CompletableFuture<>();
		AtomicInteger running = new AtomicInteger(routes.size());
		for (int i = 0; i < routes.size(); i++) {
			String route = routes.get(i);
			boolean shared = i == 0;
			Thread thread = new Thread(() -> {
				Connection own = null;
				try {
					own = connect(shared ? runtime.connectionTo(pool) : runtime.dedicatedConnectionTo(pool), timeout);
					serve(own, route, runtime, deadlines);
					if (running.decrementAndGet() == 0) {
						firstFailure.complete(null);
					}
				}
				catch (Throwable error) {
					firstFailure.completeExceptionally(error);
				}
				finally {
					if (own != null && !shared) {
						own.dispose();
					}
				}
			}, "fiber-pool-" + workerName(route));
			thread.setDaemon(true);
			thread.start();
		}
		try {
			firstFailure.join();
		}
		catch (CompletionException failed) {
			Throwable cause = failed.getCause();
			if (cause instanceof RuntimeException runtimeError) {
				throw runtimeError;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
	}

	/** One worker's session with the pool on {@code connection}, until the pool ends it. */
	private static void serve(Connection connection, String route, RuntimeContext runtime, ScheduledExecutorService deadlines) {
		LogKeys.identifyThread();
		String worker = workerName(route);
		MDC.put(LogKeys.WORKER, worker);
		// The watch reports a stuck task through the runner, which exists before any task can start.
		AtomicReference<TaskRunner> runs = new AtomicReference<>();
		TaskWatch watch = new TaskWatch(Thread.currentThread(), deadlines, runtime.config().get(ConfigKeys.TASK_TIMEOUT_GRACE),
				(id, timeoutNanos, cancelled) -> Objects.requireNonNull(runs.get(), "the runner").stuck(id, timeoutNanos, cancelled));
		ParentSession<WorkerOrder> session = ParentSession.open(connection, route, "the pool", PREFETCH,
				WorkerOrder.reader(runtime.values()), order -> {
					if (order instanceof CancelFrame cancel) {
						watch.cancel(cancel.ids());
						return true;
					}
					// Held from its arrival, so a cancel that follows it is kept until its task's turn.
					watch.holding((ChunkFrame) order);
					return false;
				});
		TaskCodec codec = new TaskCodec(runtime.values(), runtime.maxFrameSize());
		String streams = route.substring(0, route.lastIndexOf("/work/")) + "/streams/" + worker + "/";
		TaskRunner runner = new TaskRunner(codec, new TaskStreamer(codec,
				(streamRoute, frames) -> connection.requestChannel(streamRoute, frames.map(Outbound::of)), streams), watch, worker,
				session::send, runtime.maxFrameSize());
		runs.set(runner);
		try {
			WorkerOrder order;
			while ((order = session.take()) != null) {
				runner.run((ChunkFrame) order);
				session.request(1);
			}
		}
		finally {
			session.close();
		}
	}

	private static Connection connect(Mono<Connection> connection, Duration timeout) {
		return Objects.requireNonNull(connection.block(timeout), "a connection to the pool");
	}

	private static String workerName(String route) {
		return route.substring(route.lastIndexOf('/') + 1);
	}
}
