package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.pool.TaskResult;

/**
 * One element of a mapping call: its first attempt, the later ones if that fails, and its outcome once it has one.
 *
 * @param <R> the elements' result type
 */
final class MapElement<R> implements TaskSink {

	private final MapCall<R> call;
	private final MapTasks tasks;
	final TaskName description;
	private final long submittedAt = System.nanoTime();
	/** Bit 1: the first attempt has ended; bit 2: the element has. Whoever signals again is not heard. */
	private volatile int ends;
	/** The encoded argument, which later attempts send again. */
	private @Nullable ByteBuffer argument;
	private @Nullable Task task;
	private volatile @Nullable Disposable later;
	volatile @Nullable TaskResult<R> result;
	/**
	 * Set by the drain loop when it waits for this element at the head of the window, before it reads the result
	 * again; the result is written before this is read. Both volatile, so the two cannot miss each other.
	 */
	volatile boolean awaited;

	MapElement(MapCall<R> call, TaskName description, MapTasks tasks) {
		this.call = call;
		this.tasks = tasks;
		this.description = description;
	}

	/** The first attempt's task, or null when the argument cannot travel: the element has then failed. */
	@Nullable Task first(Object item) {
		try {
			argument = tasks.core().codec.argument(item, description);
		}
		catch (VirtualMachineError e) {
			throw e;
		}
		catch (Throwable e) {
			// An argument that cannot travel, or whose class cannot initialize, fails its own element only.
			tasks.core().submitted.incrementAndGet();
			end(TaskResult.failure(description.index(), carried(e)));
			return null;
		}
		task = new Task(tasks.core().nextTaskId(), tasks.function(), argument, description, 1, tasks.chunkSize(), tasks.idempotent(),
				tasks.timeoutNanos(), this);
		return task;
	}

	private boolean mark(int bit) {
		int seen;
		do {
			seen = ends;
			if ((seen & bit) != 0) {
				return false;
			}
		}
		while (!ENDS.compareAndSet(this, seen, seen | bit));
		return true;
	}

	@Override
	public void success(@Nullable Object value) {
		if (mark(1)) {
			value(value);
		}
	}

	@Override
	public void error(Throwable first) {
		if (!mark(1) || call.isOver()) {
			// The attempt of an element whose call is over ends unheard: no later attempt, no latency.
			return;
		}
		Disposable attempts = tasks.laterAttempts().after(argument, description, first)
				.switchIfEmpty(Mono.error(() -> nullResult(description)))
				.subscribe(this::value, error -> end(TaskResult.failure(description.index(), carried(error))), null,
						call.currentContext());
		later = attempts;
		if (call.isOver()) {
			attempts.dispose();
		}
	}

	@SuppressWarnings("unchecked")
	private void value(@Nullable Object value) {
		end(value == null ? TaskResult.failure(description.index(), nullResult(description))
				: TaskResult.success(description.index(), (R) value));
	}

	private void end(TaskResult<R> outcome) {
		if (call.isOver() || !mark(2)) {
			return;
		}
		argument = null;
		task = null;
		try {
			tasks.core().taskEnded(System.nanoTime() - submittedAt);
		}
		finally {
			result = outcome;
			call.elementEnded(this, outcome);
		}
	}

	/**
	 * On the drain loop, once the call is over: the first attempts of {@code elements} are cancelled together, under
	 * the dispatcher's lock, so none is handed out while the others are cancelled; then their later attempts, outside
	 * it, since they run the user's {@code Retry}, each whatever the others throw.
	 */
	static <R> void cancelAll(List<MapElement<R>> elements, Dispatcher dispatcher) {
		try {
			dispatcher.cancelTogether(() -> elements.forEach(MapElement::cancelFirst));
		}
		finally {
			RuntimeException first = null;
			for (MapElement<R> element : elements) {
				try {
					element.cancelLater();
				}
				catch (RuntimeException e) {
					if (first == null) {
						first = e;
					}
					else {
						first.addSuppressed(e);
					}
				}
			}
			if (first != null) {
				throw first;
			}
		}
	}

	private void cancelFirst() {
		Task first = task;
		if (first != null) {
			tasks.core().dispatcher.cancel(first);
		}
	}

	private void cancelLater() {
		Disposable attempts = later;
		if (attempts != null) {
			attempts.dispose();
		}
	}

	@SuppressWarnings("rawtypes")
	private static final AtomicIntegerFieldUpdater<MapElement> ENDS =
			AtomicIntegerFieldUpdater.newUpdater(MapElement.class, "ends");

	/**
	 * An element's error as the call carries it: one the JVM treats as fatal to whoever throws it on (a class that
	 * cannot link here, say) is wrapped, so it fails its element instead of escaping the operators downstream.
	 */
	static Throwable carried(Throwable error) {
		return error instanceof LinkageError ? new FiberException(error.toString(), error) : error;
	}

	/** A task's null result, which a Flux cannot carry. */
	static FiberException nullResult(TaskName description) {
		return new FiberException("task " + description + " returned null, which a Flux cannot carry; return a value or an Optional");
	}
}
