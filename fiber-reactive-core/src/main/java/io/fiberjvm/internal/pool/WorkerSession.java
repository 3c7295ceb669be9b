package io.fiberjvm.internal.pool;

import java.util.ArrayDeque;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.FluxSink;

/**
 * The parent's side of one worker's session, guarded by the dispatcher's lock: the pending table
 * (tasks handed to this worker and not answered), the chunks it holds, and the twin of its function cache.
 */
final class WorkerSession {

	/**
	 * A chunk sent and not finished: its function, to time when it ends, and its tasks in the order they run, to
	 * know which ones a lost worker was running.
	 */
	record SentChunk(ShippedFunction function, Task[] tasks) {

		/** Whether its worker takes nothing more while it holds it. */
		boolean alone() {
			return tasks.length == 1 && tasks[0].alone();
		}

		/** Whether its JVM takes nothing more while it holds it. */
		boolean isolated() {
			return tasks.length == 1 && tasks[0].isolated();
		}
	}

	final String worker;
	/** The name of the process hosting it, whose other workers share its fate. */
	final String host;
	final FluxSink<byte[]> out;
	final TaskTable pending = new TaskTable();
	final ArrayDeque<SentChunk> chunks = new ArrayDeque<>();
	final FunctionCache<Boolean> functions = new FunctionCache<>();
	boolean retiring;
	/** Its process has exited: it takes nothing more, and ends once its connection has delivered what it sent. */
	boolean exited;
	/** How its process ended, which its lost tasks' errors say; null while it runs. */
	@Nullable String exitReason;
	boolean ended;
	/**
	 * Set when a session of its process died holding tasks while the process's sessions held more than one between
	 * them: the process may have died of a task another of its workers held, so none of its tasks is charged.
	 */
	boolean sharedDeath;

	WorkerSession(String worker, String host, FluxSink<byte[]> out) {
		this.worker = worker;
		this.host = host;
		this.out = out;
	}

	/**
	 * Whether the worker asked for another chunk and holds fewer than two, and no task that goes alone.
	 */
	boolean canTake() {
		return !retiring && !exited && !ended && chunks.size() < 2 && out.requestedFromDownstream() > 0 && !holdsAlone();
	}

	/** Whether it holds a task that goes alone. */
	boolean holdsAlone() {
		return !chunks.isEmpty() && (chunks.peekFirst().alone() || chunks.peekLast().alone());
	}

	/** Whether it holds a task that has its JVM to itself. */
	boolean holdsIsolated() {
		return !chunks.isEmpty() && (chunks.peekFirst().isolated() || chunks.peekLast().isolated());
	}

	@Override
	public String toString() {
		return worker;
	}
}
