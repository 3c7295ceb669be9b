package io.fiberjvm.manager;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

import org.jspecify.annotations.Nullable;

/**
 * Runs tasks one at a time, in the order given, on threads of a shared executor, or on the caller's own thread
 * when it asks and none is queued: one object's calls.
 */
final class SerialExecutor implements Executor {

	private final Executor threads;
	private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
	private boolean running;
	/** Where tasks go once this executor is given up, or null while it is not. */
	private @Nullable Executor successor;

	SerialExecutor(Executor threads) {
		this.threads = threads;
	}

	@Override
	public void execute(Runnable task) {
		Executor next;
		synchronized (this) {
			next = successor;
			if (next == null) {
				tasks.add(task);
				if (running) {
					return;
				}
				running = true;
			}
		}
		if (next != null) {
			next.execute(task);
			return;
		}
		threads.execute(this::drain);
	}

	/**
	 * Gives this executor up while its running task is stuck: the tasks queued, then those given later, go to
	 * {@code next}, in order.
	 */
	void abandon(Executor next) {
		synchronized (this) {
			successor = next;
			// Under the lock, so a task given meanwhile cannot overtake the queued ones.
			while (!tasks.isEmpty()) {
				next.execute(tasks.poll());
			}
		}
	}

	/**
	 * Runs {@code task} on the calling thread now, when no task is queued or running, and returns true; otherwise
	 * returns false and runs nothing. Tasks given meanwhile run after it, on the shared executor's threads.
	 */
	boolean runHereIfIdle(Runnable task) {
		synchronized (this) {
			if (running || successor != null) {
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
