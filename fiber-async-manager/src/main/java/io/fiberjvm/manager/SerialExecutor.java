package io.fiberjvm.manager;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks one at a time, in the order given, on threads of a shared executor, or on the caller's own thread
 * when it asks and none is queued: one object's calls.
 */
final class SerialExecutor implements Executor {

	private final Executor threads;
	private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
	private boolean running;

	SerialExecutor(Executor threads) {
		this.threads = threads;
	}

	@Override
	public void execute(Runnable task) {
		synchronized (this) {
			tasks.add(task);
			if (running) {
				return;
			}
			running = true;
		}
		threads.execute(this::drain);
	}

	/**
	 * Runs {@code task} on the calling thread now, when no task is queued or running, and returns true; otherwise
	 * returns false and runs nothing. Tasks given meanwhile run after it, on the shared executor's threads.
	 */
	boolean runHereIfIdle(Runnable task) {
		synchronized (this) {
			if (running) {
				return false;
			}
			running = true;
		}
		run(task);
		synchronized (this) {
			if (tasks.isEmpty()) {
				running = false;
				return true;
			}
		}
		threads.execute(this::drain);
		return true;
	}

	private void drain() {
		while (true) {
			Runnable next;
			synchronized (this) {
				next = tasks.poll();
				if (next == null) {
					running = false;
					return;
				}
			}
			run(next);
		}
	}

	private static void run(Runnable task) {
		try {
			task.run();
		}
		catch (RuntimeException | Error e) {
			// One task's failure must not stop the object's later calls.
			org.slf4j.LoggerFactory.getLogger(SerialExecutor.class).warn("a call failed outside its own handling: {}", e.toString());
		}
	}
}
