package io.fiberjvm.internal.pool;

import java.util.ArrayDeque;

import reactor.core.publisher.FluxSink;

/**
 * The parent's side of one worker's session, guarded by the dispatcher's lock: the pending table
 * (tasks handed to this worker and not answered), the chunks it holds, and the twin of its function cache.
 */
final class WorkerSession {

	/** A chunk sent and not finished: its function and size, to time the function when it ends. */
	record SentChunk(ShippedFunction function, int tasks) {
	}

	final String worker;
	final FluxSink<byte[]> out;
	final TaskTable pending = new TaskTable();
	final ArrayDeque<SentChunk> chunks = new ArrayDeque<>();
	final FunctionCache<Boolean> functions = new FunctionCache<>();
	boolean retiring;
	boolean ended;
	long chunksDone;

	WorkerSession(String worker, FluxSink<byte[]> out) {
		this.worker = worker;
		this.out = out;
	}

	/**
	 * Whether the worker asked for another chunk and holds fewer than two, and none behind a streaming task:
	 * a stream waits for its caller, who may be waiting for a task queued behind it.
	 */
	boolean canTake() {
		return !retiring && !ended && chunks.size() < 2 && out.requestedFromDownstream() > 0
				&& (chunks.isEmpty() || !chunks.peekFirst().function().streams);
	}

	@Override
	public String toString() {
		return worker;
	}
}
