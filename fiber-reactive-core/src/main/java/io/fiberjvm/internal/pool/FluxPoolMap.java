package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
import reactor.core.Exceptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.util.concurrent.Queues;
import reactor.util.context.Context;

import io.fiberjvm.FiberException;
import io.fiberjvm.pool.TaskResult;

/**
 * The tasks of one mapping call as one operator: it asks the caller's publisher for items as its window allows,
 * encodes each, submits them to the dispatcher a batch at a time, and emits each element's outcome as a
 * {@link TaskResult}, in input order; or, unordered, each element's value as it ends, failing the call at once with
 * the first element that fails.
 *
 * <p>The caller's publisher is subscribed to and asked for items on a worker of its own ({@code subscribeOn}), as
 * items may take their time to come; one drain loop, on another worker of {@link Schedulers#boundedElastic()},
 * encodes and submits what has arrived and emits outcomes, so neither the publisher nor the subscriber runs on a
 * connection's thread, and results reach the subscriber where blocking is allowed. Elements end on the thread that
 * read their answers and only wake the loop when it waits for them: on short tasks the pool's own work per element is
 * what a caller waits for, so an element costs no Reactor subscription of its own. At most
 * {@link ProcessPool#WINDOW} elements are between submission and emission. A first attempt that fails goes on into
 * the later attempts the call's retry allows, given as {@link LaterAttempts}. Cancelling cancels every attempt under
 * way and the caller's publisher (its worker is disposed, which interrupts a publisher blocked on it, as any
 * {@code subscribeOn} does); an error of that publisher, or one thrown in the loop or by the publisher's
 * {@code subscribe}, does too, then fails the call. Two cases reach the subscriber on another thread: a worker that
 * refuses the loop (its scheduler shut down, or its queue full) ends the call on the thread that woke it, a
 * connection's thread when an element ended; and past boundedElastic's cap of threads, the publisher's worker and the
 * loop's may share a thread, so a publisher that blocks holds up its call's results.
 *
 * @param <R> the elements' result type
 */
final class FluxPoolMap<R> extends Flux<TaskResult<R>> {

	/** Elements between submission and emission, a power of two. */
	private static final int WINDOW = Integer.highestOneBit(ProcessPool.WINDOW);
	/** Items asked of the caller's publisher at a time, once that much room is free in the window. */
	private static final int ASK = ProcessPool.INPUT_BATCH;
	/** The most items asked at once: encoding one batch overlaps the workers' running of the one before. */
	private static final int MOST_ASKED = 4 * ASK;

	/** The attempts after a first that failed: they end with the element's value (empty for null) or its last error. */
	@FunctionalInterface
	interface LaterAttempts {

		Mono<Object> after(@Nullable ByteBuffer argument, TaskName description, Throwable first);
	}

	/** The caller's publisher, subscribed to on a worker of its own, through a guard against one that throws. */
	private final Flux<?> source;
	private final Scheduler scheduler;
	private final PoolCore core;
	private final ShippedFunction function;
	private final String what;
	private final int chunkSize;
	private final boolean idempotent;
	private final boolean ordered;
	private final LaterAttempts laterAttempts;

	private FluxPoolMap(Publisher<?> source, Scheduler scheduler, PoolCore core, ShippedFunction function, String what,
			int chunkSize, boolean idempotent, boolean ordered, LaterAttempts laterAttempts) {
		this.idempotent = idempotent;
		this.source = Flux.from(guarded(source)).subscribeOn(scheduler);
		this.scheduler = scheduler;
		this.core = core;
		this.function = function;
		this.what = what;
		this.chunkSize = chunkSize;
		this.ordered = ordered;
		this.laterAttempts = laterAttempts;
	}

	/**
	 * Each element's outcome, in input order.
	 *
	 * @param what the call, as errors name it ({@code map})
	 * @param chunkSize the caller's chunk size, or 0 to adapt
	 * @param idempotent whether the function may run again for an element
	 */
	static <R> Flux<TaskResult<R>> ordered(Publisher<?> source, PoolCore core, ShippedFunction function, String what, int chunkSize,
			boolean idempotent, LaterAttempts laterAttempts) {
		return of(source, Schedulers.boundedElastic(), core, function, what, chunkSize, idempotent, true, laterAttempts);
	}

	/** Each element's outcome as it ends, a success each: the first element that fails fails the call at once. */
	static <R> Flux<TaskResult<R>> unordered(Publisher<?> source, PoolCore core, ShippedFunction function, String what,
			int chunkSize, boolean idempotent, LaterAttempts laterAttempts) {
		return of(source, Schedulers.boundedElastic(), core, function, what, chunkSize, idempotent, false, laterAttempts);
	}

	/** The call with its publisher and its loop on workers of {@code scheduler}. */
	static <R> Flux<TaskResult<R>> of(Publisher<?> source, Scheduler scheduler, PoolCore core, ShippedFunction function,
			String what, int chunkSize, boolean idempotent, boolean ordered, LaterAttempts laterAttempts) {
		return onAssembly(new FluxPoolMap<>(source, scheduler, core, function, what, chunkSize, idempotent, ordered, laterAttempts));
	}

	/** {@code source}, whose {@code subscribe} throwing fails its subscriber instead of escaping to the worker. */
	private static Publisher<Object> guarded(Publisher<?> source) {
		return subscriber -> {
			try {
				source.subscribe(subscriber);
			}
			catch (Throwable e) {
				Operators.reportThrowInSubscribe(Operators.toCoreSubscriber(subscriber), e);
			}
		};
	}

	@Override
	public void subscribe(CoreSubscriber<? super TaskResult<R>> actual) {
		MapSubscriber main = new MapSubscriber(actual, scheduler.createWorker());
		actual.onSubscribe(main);
		if (!main.cancelled) {
			// Subscribed, and asked for items, on a worker of its own: the publisher may do work there, or wait.
			source.subscribe(main);
		}
	}

	/** The call's state; everything not volatile or atomic belongs to the drain loop. */
	private final class MapSubscriber implements CoreSubscriber<Object>, Subscription {

		private final CoreSubscriber<? super TaskResult<R>> actual;
		private final Scheduler.Worker worker;
		private final Queue<Object> items = Queues.unbounded(ASK).get();
		/** Ordered: the elements from {@link #emitted} to {@link #next}, by index modulo the window. */
		private final @Nullable Object[] window;
		/** Unordered: the elements submitted and not emitted, and those that ended, in the order they did. */
		private final Set<Element> running;
		private final Queue<Element> ended;
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

		MapSubscriber(CoreSubscriber<? super TaskResult<R>> actual, Scheduler.Worker worker) {
			this.actual = actual;
			this.worker = worker;
			this.window = new Object[ordered ? WINDOW : 0];
			this.running = ordered ? Set.of() : new HashSet<>();
			this.ended = ordered ? Queues.<Element>empty().get() : Queues.<Element>unboundedMultiproducer().get();
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
					throw Exceptions.failWithOverflow("the items of " + what + " came faster than they were asked for");
				}
				Element element = new Element(this, new TaskName(what, next++, function));
				if (ordered) {
					window[(int) (element.description.index() & (WINDOW - 1))] = element;
				}
				else {
					running.add(element);
				}
				Task task = element.first(item);
				if (task != null) {
					if (batch == null) {
						batch = new ArrayList<>(Math.min(items.size() + 1, WINDOW));
					}
					batch.add(task);
				}
			}
			if (batch != null) {
				core.submitted.addAndGet(batch.size());
				core.dispatcher.submitAll(batch);
			}
		}

		/** Emits the ended elements at the head of the window, in order, as asked; true once the call has ended. */
		private boolean emitInOrder() {
			long wanted = requested;
			long sent = 0;
			long at = emitted;
			while (sent != wanted && at != next) {
				int slot = (int) (at & (WINDOW - 1));
				Element head = element(slot);
				if (head == null) {
					throw new IllegalStateException("element " + at + " of " + what + " is missing from its window");
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
				window[slot] = null;
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
				Element element = ended.poll();
				if (element == null) {
					break;
				}
				running.remove(element);
				TaskResult<R> result = element.result;
				if (result == null) {
					throw new IllegalStateException("an element of " + what + " ended without an outcome");
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

		@SuppressWarnings("unchecked")
		private @Nullable Element element(int slot) {
			return (Element) window[slot];
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
			long inWindow = ordered ? next - emitted : running.size();
			// Items asked for and not yet taken, queued ones included, are already counted in the window.
			long room = Math.min(WINDOW - inWindow - asked, MOST_ASKED);
			if (room >= ASK || (asked == 0 && room > 0)) {
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
				if (ordered) {
					for (long i = emitted; i != next; i++) {
						int slot = (int) (i & (WINDOW - 1));
						Element element = element(slot);
						window[slot] = null;
						if (element != null) {
							element.cancel();
						}
					}
				}
				else {
					running.forEach(Element::cancel);
					running.clear();
					ended.clear();
				}
			}
			finally {
				worker.dispose();
			}
		}

		/** Whether the call is over, or about to be: an element that ends now is not heard. */
		boolean isOver() {
			return over || cancelled;
		}

		/**
		 * Wakes the loop for an element that ended: in order, only the head the loop waits for, since no other can go
		 * out before it; unordered, every one, and the first that failed ends the call.
		 */
		void elementEnded(Element element, TaskResult<R> result) {
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
				ended.offer(element);
			}
			signal();
		}
	}

	@SuppressWarnings("rawtypes")
	private static final AtomicIntegerFieldUpdater<FluxPoolMap.MapSubscriber> WIP =
			AtomicIntegerFieldUpdater.newUpdater(FluxPoolMap.MapSubscriber.class, "wip");
	@SuppressWarnings("rawtypes")
	private static final AtomicLongFieldUpdater<FluxPoolMap.MapSubscriber> REQUESTED =
			AtomicLongFieldUpdater.newUpdater(FluxPoolMap.MapSubscriber.class, "requested");
	@SuppressWarnings("rawtypes")
	private static final AtomicReferenceFieldUpdater<FluxPoolMap.MapSubscriber, Subscription> UPSTREAM =
			AtomicReferenceFieldUpdater.newUpdater(FluxPoolMap.MapSubscriber.class, Subscription.class, "upstream");
	@SuppressWarnings("rawtypes")
	private static final AtomicReferenceFieldUpdater<FluxPoolMap.MapSubscriber, Throwable> FAILED =
			AtomicReferenceFieldUpdater.newUpdater(FluxPoolMap.MapSubscriber.class, Throwable.class, "failed");

	/** One element: its first attempt, the later ones if that fails, and its outcome once it has one. */
	private final class Element implements TaskSink {

		private final MapSubscriber call;
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

		Element(MapSubscriber call, TaskName description) {
			this.call = call;
			this.description = description;
		}

		/** The first attempt's task, or null when the argument cannot travel: the element has then failed. */
		@Nullable Task first(Object item) {
			try {
				argument = core.codec.argument(item, description);
			}
			catch (VirtualMachineError e) {
				throw e;
			}
			catch (Throwable e) {
				// An argument that cannot travel, or whose class cannot initialize, fails its own element only.
				core.submitted.incrementAndGet();
				end(TaskResult.failure(description.index(), carried(e)));
				return null;
			}
			task = new Task(core.nextTaskId(), function, argument, description, 1, chunkSize, idempotent, this);
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
			Disposable attempts = laterAttempts.after(argument, description, first)
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
				core.taskEnded(System.nanoTime() - submittedAt);
			}
			finally {
				result = outcome;
				call.elementEnded(this, outcome);
			}
		}

		/** On the drain loop, once the call is over: the attempt under way is cancelled too, whatever either throws. */
		void cancel() {
			try {
				Task first = task;
				if (first != null) {
					core.dispatcher.cancel(first);
				}
			}
			finally {
				Disposable attempts = later;
				if (attempts != null) {
					attempts.dispose();
				}
			}
		}
	}

	@SuppressWarnings("rawtypes")
	private static final AtomicIntegerFieldUpdater<FluxPoolMap.Element> ENDS =
			AtomicIntegerFieldUpdater.newUpdater(FluxPoolMap.Element.class, "ends");

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
