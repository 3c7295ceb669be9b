package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;
import reactor.util.context.Context;

import io.fiberjvm.FiberException;
import io.fiberjvm.pool.TaskResult;

/**
 * One element of an ordered mapping call, as its outcome: submits the element's task and ends with its value or its
 * error as a {@link TaskResult}, one {@code Mono} and one sink per element, since on short tasks the pool's own work per
 * element is what a caller waits for. Only a first attempt that fails goes on into Reactor's retry operators, through
 * the later attempts the view's retry allows, given by the caller.
 */
final class TaskOutcome<R> implements TaskSink {

	private final PoolCore core;
	private final MonoSink<TaskResult<R>> sink;
	private final TaskName description;
	private final long submittedAt = System.nanoTime();
	private final Disposable.Swap cancel = Disposables.swap();
	/** Whether the first attempt has ended, and whether the element has: each ends once, whoever signals again. */
	private final AtomicBoolean firstEnded = new AtomicBoolean();
	private final AtomicBoolean ended = new AtomicBoolean();
	private final BiFunction<@Nullable ByteBuffer, Throwable, Mono<Object>> laterAttempts;
	/** The encoded argument, which later attempts send again; set before the first attempt is submitted. */
	private @Nullable ByteBuffer argument;

	private TaskOutcome(PoolCore core, MonoSink<TaskResult<R>> sink, TaskName description,
			BiFunction<@Nullable ByteBuffer, Throwable, Mono<Object>> laterAttempts) {
		this.core = core;
		this.sink = sink;
		this.description = description;
		this.laterAttempts = laterAttempts;
	}

	/**
	 * The outcome of {@code description}'s element: its argument encoded (a failure if it cannot be), its first
	 * attempt, then, if that fails, {@code laterAttempts} of the encoded argument and the first error, which end with the
	 * value or the last error. Cancelling cancels the attempt under way.
	 */
	static <R> Mono<TaskResult<R>> of(PoolCore core, ShippedFunction shipped, @Nullable Object arg, TaskName description,
			int chunkSize, BiFunction<@Nullable ByteBuffer, Throwable, Mono<Object>> laterAttempts) {
		return Mono.create(sink -> {
			TaskOutcome<R> outcome = new TaskOutcome<>(core, sink, description, laterAttempts);
			core.submitted.incrementAndGet();
			ByteBuffer argument;
			try {
				argument = core.codec.argument(arg, description);
			}
			catch (VirtualMachineError e) {
				throw e;
			}
			catch (Throwable e) {
				// An argument that cannot travel, or whose class cannot initialize, fails its own element only.
				outcome.end(TaskResult.failure(description.index(), e));
				return;
			}
			outcome.argument = argument;
			Task task = new Task(core.nextTaskId(), shipped, argument, description, 1, chunkSize, outcome);
			outcome.cancel.replace(() -> core.dispatcher.cancel(task));
			sink.onCancel(outcome.cancel);
			try {
				core.dispatcher.submit(task);
			}
			catch (VirtualMachineError e) {
				throw e;
			}
			catch (Throwable e) {
				outcome.error(e);
			}
		});
	}

	@Override
	public void success(@Nullable Object value) {
		if (firstEnded.compareAndSet(false, true)) {
			value(value);
		}
	}

	@Override
	public void error(Throwable first) {
		// A cancelled element's attempt ends unheard, as its sink would have ignored it: no retry, no latency.
		if (!firstEnded.compareAndSet(false, true) || cancel.isDisposed()) {
			return;
		}
		// Replaced, not disposed: the first attempt has ended; a cancel that came first disposes the later ones at once.
		cancel.replace(laterAttempts.apply(argument, first)
				.switchIfEmpty(Mono.error(() -> nullResult(description)))
				.subscribe(this::value, error -> end(TaskResult.failure(description.index(), error)), null,
						Context.of(sink.contextView())));
	}

	@SuppressWarnings("unchecked")
	private void value(@Nullable Object value) {
		end(value == null ? TaskResult.failure(description.index(), nullResult(description))
				: TaskResult.success(description.index(), (R) value));
	}

	private void end(TaskResult<R> result) {
		if (cancel.isDisposed() || !ended.compareAndSet(false, true)) {
			return;
		}
		try {
			core.taskEnded(System.nanoTime() - submittedAt);
		}
		finally {
			sink.success(result);
		}
	}

	/** A task's null result, which a Flux cannot carry. */
	static FiberException nullResult(TaskName description) {
		return new FiberException("task " + description + " returned null, which a Flux cannot carry; return a value or an Optional");
	}
}
