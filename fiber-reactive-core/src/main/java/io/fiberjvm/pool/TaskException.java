package io.fiberjvm.pool;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberException;

/** A pool task did not return a result; says which task and on which worker. */
public abstract class TaskException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final String task;
	private final String worker;

	TaskException(String message, String task, String worker, @Nullable Throwable cause) {
		super(message, cause);
		this.task = task;
		this.worker = worker;
	}

	/** The task, as the pool describes it ({@code "element 17 of map(...)"}). */
	public String task() {
		return task;
	}

	/** The worker process the task was on. */
	public String worker() {
		return worker;
	}
}
