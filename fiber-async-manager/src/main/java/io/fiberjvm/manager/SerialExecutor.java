package io.fiberjvm.manager;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/** Runs tasks one at a time, in the order given, on threads of a shared executor: one object's calls. */
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
			try {
				next.run();
			}
			catch (RuntimeException | Error e) {
				// One task's failure must not stop the object's later calls.
				org.slf4j.LoggerFactory.getLogger(SerialExecutor.class).warn("a call failed outside its own handling: {}", e.toString());
			}
		}
	}
}
