package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Exceptions;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;

import io.fiberjvm.pool.TaskResult;

/**
 * One subscription to a {@link FluxPoolMap}: the call's state and its drain loop, as that class describes them;
 * everything not volatile or atomic belongs to the drain loop.
 *
 * @param <R> the elements' result type
 */
final class MapCall<R> implements CoreSubscriber<Object>, Subscription {

	@SuppressWarnings("rawtypes")
	private static final AtomicIntegerFieldUpdater<MapCall> WIP = AtomicIntegerFieldUpdater.newUpdater(MapCall.class, "wip");
	@SuppressWarnings("rawtypes")
	private static final AtomicLongFieldUpdater<MapCall> REQUESTED = AtomicLongFieldUpdater.newUpdater(MapCall.class, "requested");
	@SuppressWarnings("rawtypes")
	private static final AtomicReferenceFieldUpdater<MapCall, Subscription> UPSTREAM =
			AtomicReferenceFieldUpdater.newUpdater(MapCall.class, Subscription.class, "upstream");
	@SuppressWarnings("rawtypes")
	private static final AtomicReferenceFieldUpdater<MapCall, Throwable> FAILED =
			AtomicReferenceFieldUpdater.newUpdater(MapCall.class, Throwable.class, "failed");

	private final CoreSubscriber<? super TaskResult<R>> actual;
	private final MapTasks tasks;
	private final boolean ordered;
	private final Scheduler.Worker worker;
	private final Queue<Object> items = Queues.unbounded(MapDemand.ASK).get();
	/** Ordered: the elements from {@link #emitted} to {@link #next}, by index modulo the window. */
	private final ElementWindow<R> window;
	/** Unordered: the elements submitted and not emitted, and those that ended, in the order they did. */
	private final EndedElements<R> running = new EndedElements<>();
	private volatile int wip;
	private volatile long requested;
	private volatile @Nullable Subscription upstream;
	private volatile boolean done;
	private volatile @Nullable Throwable error;
	/** Unordered: the first element's error, which ends the call at once. */
	private volatile @Nullable Throwable failed;
	/** The subscriber cancelled: it hears nothing more. */
	private volatile boolean cancelled;
	/** The call is over, cancelled, failed or completed: an element that ends now is not heard. */
	private volatile boolean over;
	/** The loop has ended the call: it signalled its end, or found the subscriber gone. */
	private boolean terminated;
	/** The index the next item gets. */
	private long next;
	/** The index of the next element to emit (ordered). */
	private long emitted;
	/** Items asked of the caller's publisher and not yet arrived. */
	private long asked;

	MapCall(CoreSubscriber<? super TaskResult<R>> actual, Scheduler.Worker worker, MapTasks tasks, boolean ordered) {
		this.actual = actual;
		this.tasks = tasks;
		this.ordered = ordered;
		this.worker = worker;
		this.window = new ElementWindow<>(ordered ? MapDemand.WINDOW : 1);
	}

	@Override
	public Context currentContext() {
		return actual.currentContext();
	}

	@Override
	public void onSubscribe(Subscription s) {
		if (!Operators.setOnce(UPSTREAM, this, s)) {
			return;
		}
		if (cancelled) {
			s.cancel();
			return;
		}
		signal();
	}

	@Override
	public void onNext(Object item) {
		if (done || over) {
			Operators.onNextDropped(item, actual.currentContext());
			return;
		}
		items.offer(item);
		signal();
	}

	@Override
	public void onError(Throwable t) {
		if (done) {
			Operators.onErrorDropped(t, actual.currentContext());
			return;
		}
		error = t;
		done = true;
		signal();
	}

	@Override
	public void onComplete() {
		done = true;
		signal();
	}

	@Override
	public void request(long n) {
		if (Operators.validate(n)) {
			Operators.addCap(REQUESTED, this, n);
			signal();
		}
	}

	@Override
	public void cancel() {
		if (cancelled) {
			return;
		}
		cancelled = true;
		Operators.terminate(UPSTREAM, this);
		signal();
	}

	/** Runs the drain loop on the worker, unless it is running or about to: it then goes round once more. */
	void signal() {
		if (WIP.getAndIncrement(this) != 0) {
			return;
		}
		try {
			worker.schedule(this::drain);
		}
		catch (RejectedExecutionException e) {
			// The worker's queue is full or its scheduler shut down. No loop runs or will (wip stays up): end here.
			end(Operators.onRejectedExecution(e, actual.currentContext()));
		}
	}

	private void drain() {
		int missed = 1;
		try {
			while (true) {
				if (cancelled) {
					end(null);
					return;
				}
				submitArrived();
				if (ordered ? emitInOrder() : emitAsEnded()) {
					return;
				}
				ask();
				missed = WIP.addAndGet(this, -missed);
				if (missed == 0) {
					return;
				}
			}
		}
		catch (Throwable e) {
			// A subscriber's fatal error, a publisher that sent more than asked, a dispatcher that threw: the call
			// fails with it, and nothing waits for ever. The loop never runs again (wip stays up).
			end(e);
		}
	}

	/**
	 * Ends the call, once: what runs is cancelled, the worker let go, and the subscriber told, with {@code error}
	 * or completion, unless it cancelled. An error that comes after the end, or that nobody is left to hear, goes
	 * to Reactor's dropped-error hook. Not through Reactor's operator-error hook, which throws again what the JVM
	 * treats as fatal.
	 */
	private void end(@Nullable Throwable error) {
		if (terminated) {
			if (error != null) {
				Operators.onErrorDropped(error, actual.currentContext());
			}
			return;
		}
		terminated = true;
		try {
			if (error != null || cancelled) {
				cancelAll();
			}
			else {
				over = true;
				worker.dispose();
			}
		}
		finally {
			if (cancelled) {
				if (error != null) {
					Operators.onErrorDropped(error, actual.currentContext());
				}
			}
			else if (error != null) {
				actual.onError(error);
			}
			else {
				actual.onComplete();
			}
		}
	}

	/** Numbers, encodes and submits the items that arrived, in one batch; none once the publisher has failed. */
	private void submitArrived() {
		if (error != null || failed != null) {
			return;
		}
		List<Task> batch = null;
		Object item;
		while ((item = items.poll()) != null) {
			if (--asked < 0) {
				throw Exceptions.failWithOverflow("the items of " + tasks.what() + " came faster than they were asked for");
			}
			MapElement<R> element = tasks.element(this, next++);
			if (ordered) {
				window.put(element);
			}
			else {
				running.add(element);
			}
			Task task = element.first(item);
			if (task != null) {
				if (batch == null) {
					batch = new ArrayList<>(Math.min(items.size() + 1, MapDemand.WINDOW));
				}
				batch.add(task);
			}
		}
		if (batch != null) {
			tasks.submit(batch);
		}
	}

	/** Emits the ended elements at the head of the window, in order, as asked; true once the call has ended. */
	private boolean emitInOrder() {
		long wanted = requested;
		long sent = 0;
		long at = emitted;
		while (sent != wanted && at != next) {
			MapElement<R> head = window.get(at);
			if (head == null) {
				throw new IllegalStateException("element " + at + " of " + tasks.what() + " is missing from its window");
			}
			TaskResult<R> result = head.result;
			if (result == null) {
				// Marked before its result is read again: the head, ending now, sees the mark and wakes the loop.
				head.awaited = true;
				result = head.result;
				if (result == null) {
					break;
				}
			}
			window.take(at);
			at++;
			sent++;
			emitted = at;
			actual.onNext(result);
			if (cancelled) {
				return false;
			}
		}
		if (sent != 0) {
			Operators.produced(REQUESTED, this, sent);
		}
		return endIfDone(at == next);
	}

	/** Emits elements as they ended, as asked, or fails the call with the first that failed; true once it has ended. */
	private boolean emitAsEnded() {
		Throwable first = failed;
		if (first != null) {
			end(first);
			return true;
		}
		long wanted = requested;
		long sent = 0;
		while (sent != wanted) {
			MapElement<R> element = running.nextEnded();
			if (element == null) {
				break;
			}
			TaskResult<R> result = element.result;
			if (result == null) {
				throw new IllegalStateException("an element of " + tasks.what() + " ended without an outcome");
			}
			sent++;
			actual.onNext(result);
			if (cancelled) {
				return false;
			}
		}
		if (sent != 0) {
			Operators.produced(REQUESTED, this, sent);
		}
		return endIfDone(running.isEmpty());
	}

	/** Ends the call when its publisher has (its error at once; completion once every element is out). */
	private boolean endIfDone(boolean allOut) {
		if (!done) {
			return false;
		}
		Throwable publisherFailed = error;
		if (publisherFailed != null) {
			end(publisherFailed);
			return true;
		}
		if (allOut && items.isEmpty()) {
			end(null);
			return true;
		}
		return false;
	}

	/** Asks the caller's publisher for as many items as the window has room for, a batch at a time. */
	private void ask() {
		Subscription s = upstream;
		if (s == null || done) {
			return;
		}
		long room = MapDemand.toAsk(ordered ? next - emitted : running.size(), asked);
		if (room > 0) {
			asked += room;
			s.request(room);
		}
	}

	/**
	 * The call is over: every attempt under way is cancelled, what waits is dropped, the publisher cancelled and the
	 * worker let go, each whatever the others throw.
	 */
	private void cancelAll() {
		over = true;
		try {
			Operators.terminate(UPSTREAM, this);
			items.clear();
			MapElement.cancelAll(ordered ? window.takeAll(emitted, next) : running.takeAll(), tasks.core().dispatcher);
		}
		finally {
			worker.dispose();
		}
	}

	/** Whether the subscriber cancelled. */
	boolean isCancelled() {
		return cancelled;
	}

	/** Whether the call is over, or about to be: an element that ends now is not heard. */
	boolean isOver() {
		return over || cancelled;
	}

	/**
	 * Wakes the loop for an element that ended: in order, only the head the loop waits for, since no other can go
	 * out before it; unordered, every one, and the first that failed ends the call.
	 */
	void elementEnded(MapElement<R> element, TaskResult<R> result) {
		if (ordered) {
			if (element.awaited) {
				signal();
			}
			return;
		}
		Throwable error = result.error();
		if (error != null) {
			FAILED.compareAndSet(this, null, error);
		}
		else {
			running.ended(element);
		}
		signal();
	}
}
