package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.WorkerStartException;

/** Callers' completions, run outside the dispatcher's lock: one that throws is logged, so no other caller is stranded. */
final class Completions {

	private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

	private Completions() {
	}

	/** Runs each completion even when one throws. */
	static void runAll(List<Runnable> completions) {
		completions.forEach(Completions::run);
	}

	/** The failing of each of {@code tasks} whose caller still waits for it, with an error of its own. */
	static List<Runnable> failing(List<Task> tasks, Function<Task, RuntimeException> error) {
		List<Runnable> after = new ArrayList<>(tasks.size());
		for (Task task : tasks) {
			if (!task.cancelled) {
				after.add(() -> task.sink.error(error.apply(task)));
			}
		}
		return after;
	}

	/** Runs {@code completion}; one that throws is logged, and only an error the JVM cannot go on after is rethrown. */
	/** The error of {@code task}, refused by a terminated pool. */
	static PoolClosedException closed(Task task) {
		return new PoolClosedException("the pool was terminated; " + task + " did not run");
	}

	/** Each caller's own copy of {@code why}, so that what a caller's operators add to it stays that caller's. */
	static WorkerStartException copy(WorkerStartException why) {
		return new WorkerStartException(why.pool(), why.failures(), why.getCause() != null ? why.getCause() : why);
	}

	static void run(Runnable completion) {
		try {
			completion.run();
		}
		catch (VirtualMachineError fatal) {
			throw fatal;
		}
		catch (Throwable e) {
			log.warn("a task's completion failed: {}", e.toString());
		}
	}
}
