package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;

import org.jspecify.annotations.Nullable;

/**
 * One attempt at one task: what the dispatcher queues, hands to a worker and answers. A retry is a new
 * {@code Task} with a new id, so a late answer to a lost attempt is recognised and dropped.
 */
final class Task {

	final long id;
	final ShippedFunction function;
	/**
	 * The argument's bytes, shared by every attempt and never moved (null for a null argument); a large one is
	 * framed in place for the first attempt only.
	 */
	final @Nullable ByteBuffer arg;
	final TaskName description;
	final int attempt;
	/** The caller's chunk size, or 0 to adapt. */
	final int chunkSize;
	/** Whether the function may run again for this argument; a task that may not always goes {@link #alone()}. */
	final boolean idempotent;
	/** How long it may run before its worker interrupts it, or 0 for no limit. */
	final long timeoutNanos;
	final TaskSink sink;
	/** The streaming attempt this task is, or null for a task answered with one value. */
	final @Nullable StreamAttempt stream;
	/** Whether it waits in the dispatcher's queue; under the dispatcher's lock. */
	boolean queued;
	/** When it was last queued, in {@link System#nanoTime()}'s terms; under the dispatcher's lock. */
	long queuedAt;
	/** Whether it was last queued behind the others (a first attempt) rather than ahead of them; under the dispatcher's lock. */
	boolean queuedLast;
	/**
	 * Set when the caller cancelled; a queued task is then skipped. Written under the dispatcher's lock; volatile, as
	 * a large result's decoding, off the lock and the connection's thread, checks it too.
	 */
	volatile boolean cancelled;
	/** The session running it, or null while queued; under the dispatcher's lock. */
	@Nullable WorkerSession runningOn;
	/**
	 * Set when a worker died holding it among other unanswered tasks, so which of them killed it is unknown: it then
	 * runs {@link #alone()}, to be charged only for a death of its own. Under the dispatcher's lock.
	 */
	boolean suspect;

	/** A task with no deadline. */
	Task(long id, ShippedFunction function, @Nullable ByteBuffer arg, TaskName description, int attempt,
			int chunkSize, boolean idempotent, TaskSink sink) {
		this(id, function, arg, description, attempt, chunkSize, idempotent, 0, sink);
	}

	Task(long id, ShippedFunction function, @Nullable ByteBuffer arg, TaskName description, int attempt,
			int chunkSize, boolean idempotent, long timeoutNanos, TaskSink sink) {
		this.chunkSize = chunkSize;
		this.idempotent = idempotent;
		this.timeoutNanos = timeoutNanos;
		this.id = id;
		this.function = function;
		this.arg = arg;
		this.description = description;
		this.attempt = attempt;
		this.sink = sink;
		this.stream = sink instanceof StreamAttempt streaming ? streaming : null;
	}

	/**
	 * Whether it goes in a chunk of its own to a worker that holds nothing, and that worker takes nothing more while
	 * it holds it, so that if the worker dies this task is the one it was running: a task that may not run twice, a
	 * suspect, a retry (whose last attempt may have killed its worker), and a streaming task (whose stream waits for
	 * its caller, who may be waiting for a task queued behind it).
	 */
	boolean alone() {
		return stream != null || !idempotent || suspect || attempt > 1;
	}

	/**
	 * Whether it goes, alone, only to a JVM whose workers all hold nothing, and that JVM takes nothing more while it
	 * holds it: a suspect, whose worker's death must be its own to be charged. Other lone tasks keep only their worker.
	 */
	boolean isolated() {
		return suspect;
	}

	int size() {
		return arg == null ? 16 : arg.remaining() + 16;
	}

	@Override
	public String toString() {
		return description + (attempt > 1 ? " (attempt " + attempt + ")" : "");
	}
}
