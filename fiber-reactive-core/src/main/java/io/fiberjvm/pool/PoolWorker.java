package io.fiberjvm.pool;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.reactivestreams.Subscription;
import org.slf4j.MDC;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.LogKeys;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.queue.QueueContext;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;

/**
 * What a pool's worker process runs: the pool's initializer, then one session with the pool per worker it
 * hosts. A session pulls chunks of tasks (at most two held at once), runs them one after another on its
 * own thread and sends their results back; every session but the first has a connection of its own. It
 * returns when the pool has ended every session, which ends the process with exit code 0, and throws as
 * soon as one session fails, which ends the process and so every session.
 */
final class PoolWorker implements FiberRunnable {

	private static final long serialVersionUID = 1L;
	/** Chunks a worker holds at once: the one it runs and the next. */
	static final int HELD_CHUNKS = 2;
	private static final Object END = new Object();

	private final String parent;
	/** One route per worker this process hosts. */
	private final List<String> routes;
	private final byte[] initializer;
	private final List<String> initializerAllow;
	private transient QueueContext context;

	PoolWorker(String parent, List<String> routes, byte[] initializer, List<String> initializerAllow) {
		this.parent = parent;
		this.routes = List.copyOf(routes);
		this.initializer = initializer;
		this.initializerAllow = List.copyOf(initializerAllow);
	}

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		in.defaultReadObject();
		// The runtime reading this target is the one the worker talks to its pool through.
		context = QueueContext.current();
	}

	@Override
	public void run() {
		if (context == null) {
			throw new IllegalStateException("a pool worker runs only in a job-backed process its pool started");
		}
		ShippedValues values = context.values();
		if (initializer != null) {
			// Read with this runtime resolving handles, so queues or shared objects captured by user code work here.
			QueueContext.resolving(context, () -> values.readFunction(initializer, initializerAllow, Runnable.class, "the pool's initializer")).run();
		}
		Endpoint pool = Endpoint.parse(parent);
		Duration timeout = context.config().get(ConfigKeys.START_TIMEOUT);
		if (routes.size() == 1) {
			serve(context.connectionTo(pool).block(timeout), routes.get(0), values);
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
					own = shared ? context.connectionTo(pool).block(timeout) : context.dedicatedConnectionTo(pool).block(timeout);
					serve(own, route, values);
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
			}, "fiber-pool-" + route.substring(route.lastIndexOf('/') + 1));
			thread.setDaemon(true);
			thread.start();
		}
		try {
			firstFailure.join();
		}
		catch (java.util.concurrent.CompletionException failed) {
			Throwable cause = failed.getCause();
			if (cause instanceof RuntimeException runtime) {
				throw runtime;
			}
			if (cause instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(cause);
		}
	}

	/** One worker's session with the pool on {@code connection}, until the pool ends it. */
	private void serve(Connection connection, String route, ShippedValues values) {
		LogKeys.identifyThread();
		MDC.put(LogKeys.WORKER, route.substring(route.lastIndexOf('/') + 1));
		Sinks.Many<byte[]> results = Sinks.many().unicast().onBackpressureBuffer();
		BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
		ChunkSubscriber chunks = new ChunkSubscriber(inbox);
		connection.requestChannel(route, results.asFlux()).subscribe(chunks);
		Runner runner = new Runner(values, results, context.maxFrameSize(), context);
		try {
			while (true) {
				Object next = inbox.take();
				if (next == END) {
					return;
				}
				if (next instanceof Throwable error) {
					throw new IllegalStateException("the pool's session ended with an error: " + error.getMessage(), error);
				}
				runner.run(TaskFrames.decodeChunk((byte[]) next));
				chunks.request(1);
			}
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted while waiting for tasks", e);
		}
		finally {
			results.tryEmitComplete();
		}
	}

	/** Runs chunks and sends their answers, in frames that fit the transport. */
	private static final class Runner {

		private final ShippedValues values;
		private final Sinks.Many<byte[]> results;
		private final int frameBudget;
		private final int maxValue;
		private final FunctionCache<Object> functions = new FunctionCache<>();

		private final QueueContext context;

		Runner(ShippedValues values, Sinks.Many<byte[]> results, int maxFrameSize, QueueContext context) {
			this.context = context;
			this.values = values;
			this.results = results;
			this.frameBudget = Math.max(1024, maxFrameSize / 2);
			this.maxValue = Math.max(512, maxFrameSize - 4096);
		}

		@SuppressWarnings("unchecked")
		void run(TaskFrames.Chunk chunk) {
			Object function;
			if (chunk.function() != null) {
				try {
					function = QueueContext.resolving(context,
							() -> values.readFunction(chunk.function(), chunk.allow(), Function.class, "the pool's function"));
				}
				catch (OutOfMemoryError | InternalError fatal) {
					throw fatal;
				}
				catch (Throwable e) {
					// A class that cannot load or initialize here, say. Kept in the cache as the error, so the
					// parent's twin of the cache stays true, and every task of the function fails with it.
					function = e;
				}
				functions.put(chunk.functionId(), function);
			}
			else {
				function = functions.get(chunk.functionId());
				if (function == null) {
					function = new IllegalStateException("function " + chunk.functionId() + " was never shipped to this worker");
				}
			}
			List<TaskFrames.Answer> answers = new ArrayList<>();
			long bytes = 0;
			long start = System.nanoTime();
			for (TaskFrames.TaskBytes task : chunk.tasks()) {
				TaskFrames.Answer answer = function instanceof Function<?, ?> fn
						? runOne((Function<Object, Object>) fn, task, chunk.allow())
						: failed(task.id(), (Throwable) function);
				int size = answer.bytes() == null ? 16 : answer.bytes().length + 16;
				if (!answers.isEmpty() && bytes + size > frameBudget) {
					emit(new TaskFrames.Results(false, 0, answers));
					answers = new ArrayList<>();
					bytes = 0;
				}
				answers.add(answer);
				bytes += size;
			}
			emit(new TaskFrames.Results(true, System.nanoTime() - start, answers));
		}

		private TaskFrames.Answer runOne(Function<Object, Object> fn, TaskFrames.TaskBytes task, List<String> allow) {
			try {
				Object result = fn.apply(QueueContext.resolving(context, () -> values.read(task.arg(), allow, "the argument")));
				byte[] bytes = values.write(result, "the result");
				if (bytes != null && bytes.length > maxValue) {
					throw new CodecException("the result is " + bytes.length + " bytes, more than a frame ("
							+ ConfigKeys.MAX_FRAME_SIZE.name() + ") carries");
				}
				return new TaskFrames.Answer(task.id(), false, ShippedValues.allowFor(result), bytes);
			}
			catch (OutOfMemoryError | InternalError fatal) {
				// The process is not to be trusted after these; the pool sees it die. A stack overflow is the task's own.
				throw fatal;
			}
			catch (Throwable error) {
				return failed(task.id(), error);
			}
		}

		private TaskFrames.Answer failed(long id, Throwable error) {
			return new TaskFrames.Answer(id, true, null, TaskFrames.utf8(RemoteException.encode(error, Math.min(maxValue, 64 * 1024))));
		}

		private void emit(TaskFrames.Results frame) {
			results.emitNext(TaskFrames.encode(frame), Sinks.EmitFailureHandler.FAIL_FAST);
		}
	}

	/** Takes chunks off the network thread into the inbox, asking for two to begin with. */
	private static final class ChunkSubscriber extends BaseSubscriber<byte[]> {

		private final BlockingQueue<Object> inbox;

		ChunkSubscriber(BlockingQueue<Object> inbox) {
			this.inbox = inbox;
		}

		@Override
		protected void hookOnSubscribe(Subscription subscription) {
			subscription.request(HELD_CHUNKS);
		}

		@Override
		protected void hookOnNext(byte[] chunk) {
			inbox.add(chunk);
		}

		@Override
		protected void hookOnComplete() {
			inbox.add(END);
		}

		@Override
		protected void hookOnError(Throwable error) {
			inbox.add(error);
		}
	}
}
