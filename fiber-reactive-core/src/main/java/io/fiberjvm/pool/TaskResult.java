package io.fiberjvm.pool;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * How one task of a pool call ended: its result or its error, with its position in the input.
 *
 * @param <R> the result type
 */
public final class TaskResult<R> {

	private final long index;
	private final @Nullable R value;
	private final @Nullable Throwable error;

	private TaskResult(long index, @Nullable R value, @Nullable Throwable error) {
		this.index = index;
		this.value = value;
		this.error = error;
	}

	/** A task at {@code index} that returned {@code value}. */
	public static <R> TaskResult<R> success(long index, @Nullable R value) {
		return new TaskResult<>(index, value, null);
	}

	/** A task at {@code index} that failed with {@code error}. */
	public static <R> TaskResult<R> failure(long index, Throwable error) {
		return new TaskResult<>(index, null, Objects.requireNonNull(error, "error"));
	}

	/** The task's position in the input, from 0. */
	public long index() {
		return index;
	}

	/** Whether the task returned a result. */
	public boolean isSuccess() {
		return error == null;
	}

	/** The result (possibly {@code null}); throws the task's error if it failed. */
	public @Nullable R value() {
		if (error instanceof RuntimeException runtime) {
			throw runtime;
		}
		if (error instanceof Error fatal) {
			throw fatal;
		}
		if (error != null) {
			throw new IllegalStateException(error);
		}
		return value;
	}

	/** The task's error, or {@code null} if it succeeded. */
	public @Nullable Throwable error() {
		return error;
	}

	@Override
	public String toString() {
		return "TaskResult[" + index + (error == null ? ": " + value : " failed: " + error) + "]";
	}
}
