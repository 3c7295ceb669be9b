package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Disposable;
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
 * {@link TaskResult}, in input order or as they end.
 *
 * <p>One drain loop, on a worker of {@link Schedulers#boundedElastic()}, subscribes to the caller's publisher, asks
 * it for items, encodes and submits them and emits outcomes, so the caller's publisher never runs on a connection's
 * thread and results reach the subscriber where blocking is allowed. Elements end on the thread that read their
 * answers and only wake the loop: on short tasks the pool's own work per element is what a caller waits for, so an
 * element costs no Reactor subscription of its own. At most {@link ProcessPool#WINDOW} elements are between
 * submission and emission. A first attempt that fails goes on into the later attempts the call's retry allows,
 * given as {@link LaterAttempts}. Cancelling cancels every attempt under way and the caller's publisher; an error of
 * that publisher does too, then fails the call.
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

	private final Publisher<?> source;
	private final PoolCore core;
	private final ShippedFunction function;
	private final String what;
	private final int chunkSize;
	private final boolean ordered;
	private final LaterAttempts laterAttempts;

	/**
	 * @param what the call, as errors name it ({@code map})
	 * @param chunkSize the caller's chunk size, or 0 to adapt
	 * @param ordered whether outcomes are emitted in input order, else as they end
	 */
	FluxPoolMap(Publisher<?> source, PoolCore core, ShippedFunction function, String what, int chunkSize, boolean ordered,
			LaterAttempts laterAttempts) {
		this.source = source;
		this.core = core;
		this.function = function;
		this.what = what;
		this.chunkSize = chunkSize;
		this.ordered = ordered;
		this.laterAttempts = laterAttempts;
	}

	@Override
	public void subscribe(CoreSubscriber<? super TaskResult<R>> actual) {
		Scheduler.Worker worker = Schedulers.boundedElastic().createWorker();
		MapSubscriber main = new MapSubscriber(actual, worker);
		actual.onSubscribe(main);
		main.start();
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
		private final AtomicInteger wip = new AtomicInteger();
		private final AtomicLong requested = new AtomicLong();
		private volatile @Nullable Subscription upstream;
		private volatile boolean done;
		private volatile @Nullable Throwable error;
		private volatile boolean cancelled;
		/** The index the next item gets. */
		private long next;
		/** The index of the next element to emit (ordered). */
		private long emitted;
		/** Items asked of the caller's publisher and not yet arrived. */
		private long asked;
		private boolean terminated;

		MapSubscriber(CoreSubscriber<? super TaskResult<R>> actual, Scheduler.Worker worker) {
			this.actual = actual;
			this.worker = worker;
			this.window = new Object[ordered ? WINDOW : 0];
			this.running = ordered ? Set.of() : new HashSet<>();
			this.ended = ordered ? Queues.<Element>empty().get() : Queues.<Element>unboundedMultiproducer().get();
		}

		/** Subscribes to the caller's publisher on the worker: its subscription may do work (an iterator's first steps). */
		void start() {
			try {
				worker.schedule(() -> {
					if (cancelled) {
						worker.dispose();
						return;
					}
					source.subscribe(this);
				});
			}
			catch (RejectedExecutionException e) {
				worker.dispose();
				Operators.error(actual, Operators.onRejectedExecution(e, actual.currentContext()));
			}
		}

		@Override
		public Context currentContext() {
			return actual.currentContext();
		}

		@Override
		public void onSubscribe(Subscription s) {
			if (!Operators.validate(upstream, s)) {
				return;
			}
			upstream = s;
			if (cancelled) {
				s.cancel();
				return;
			}
			signal();
		}

		@Override
		public void onNext(Object item) {
			if (done) {
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
				requested.getAndUpdate(r -> Operators.addCap(r, n));
				signal();
			}
		}

		@Override
		public void cancel() {
			if (cancelled) {
				return;
			}
			cancelled = true;
			Subscription s = upstream;
			if (s != null) {
				s.cancel();
			}
			signal();
		}

		/** Runs the drain loop on the worker, unless it is running or about to: it then goes round once more. */
		void signal() {
			if (wip.getAndIncrement() != 0) {
				return;
			}
			try {
				worker.schedule(this::drain);
			}
			catch (RejectedExecutionException e) {
				// Only a scheduler shut down refuses: nothing else can end the call.
				cancelled = true;
				Subscription s = upstream;
				if (s != null) {
					s.cancel();
				}
				actual.onError(Operators.onRejectedExecution(e, actual.currentContext()));
			}
		}

		private void drain() {
			int missed = 1;
			while (!terminated) {
				if (cancelled) {
					cancelAll();
					return;
				}
				submitArrived();
				if (ordered ? emitInOrder() : emitAsEnded()) {
					return;
				}
				ask();
				missed = wip.addAndGet(-missed);
				if (missed == 0) {
					return;
				}
			}
		}

		/** Numbers, encodes and submits the items that arrived, in one batch. */
		private void submitArrived() {
			List<Task> batch = null;
			Object item;
			while ((item = items.poll()) != null) {
				asked--;
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
			long wanted = requested.get();
			long sent = 0;
			long at = emitted;
			while (sent != wanted && at != next) {
				int slot = (int) (at & (WINDOW - 1));
				Element head = Objects.requireNonNull(element(slot), "an element in the window");
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
				actual.onNext(result);
				if (cancelled) {
					emitted = at;
					return false;
				}
			}
			emitted = at;
			produced(sent);
			return endIfDone(at == next);
		}

		/** Emits elements as they ended, as asked; true once the call has ended. */
		private boolean emitAsEnded() {
			long wanted = requested.get();
			long sent = 0;
			while (sent != wanted) {
				Element element = ended.poll();
				if (element == null) {
					break;
				}
				running.remove(element);
				sent++;
				actual.onNext(Objects.requireNonNull(element.result, "an ended element's result"));
				if (cancelled) {
					return false;
				}
			}
			produced(sent);
			return endIfDone(running.isEmpty());
		}

		@SuppressWarnings("unchecked")
		private @Nullable Element element(int slot) {
			return (Element) window[slot];
		}

		private void produced(long sent) {
			if (sent != 0 && requested.get() != Long.MAX_VALUE) {
				requested.addAndGet(-sent);
			}
		}

		/** Ends the call when its publisher has (its error at once; completion once every element is out). */
		private boolean endIfDone(boolean allOut) {
			if (!done) {
				return false;
			}
			Throwable failed = error;
			if (failed != null) {
				cancelAll();
				actual.onError(failed);
				return true;
			}
			if (allOut && items.isEmpty()) {
				terminated = true;
				worker.dispose();
				actual.onComplete();
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

		/** Cancels every attempt under way and drops what waits; the loop ends here. */
		private void cancelAll() {
			terminated = true;
			Subscription s = upstream;
			if (s != null) {
				s.cancel();
			}
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
			worker.dispose();
		}

		/**
		 * Wakes the loop for an element that ended: in order, only the head the loop waits for, since no other can go
		 * out before it.
		 */
		void elementEnded(Element element) {
			if (ordered) {
				if (element.awaited) {
					signal();
				}
				return;
			}
			ended.offer(element);
			signal();
		}
	}

	/** One element: its first attempt, the later ones if that fails, and its outcome once it has one. */
	private final class Element implements TaskSink {

		private final MapSubscriber call;
		final TaskName description;
		private final long submittedAt = System.nanoTime();
		private final AtomicInteger ends = new AtomicInteger();
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
				end(TaskResult.failure(description.index(), e));
				return null;
			}
			task = new Task(core.nextTaskId(), function, argument, description, 1, chunkSize, this);
			return task;
		}

		@Override
		public void success(@Nullable Object value) {
			// Bit 1: the first attempt has ended; whoever signals again is not heard.
			if ((ends.getAndUpdate(e -> e | 1) & 1) == 0) {
				value(value);
			}
		}

		@Override
		public void error(Throwable first) {
			if ((ends.getAndUpdate(e -> e | 1) & 1) != 0 || call.cancelled) {
				// A cancelled element's attempt ends unheard: no later attempt, no latency.
				return;
			}
			Disposable attempts = laterAttempts.after(argument, description, first)
					.switchIfEmpty(Mono.error(() -> nullResult(description)))
					.subscribe(this::value, error -> end(TaskResult.failure(description.index(), error)), null,
							call.currentContext());
			later = attempts;
			if (call.cancelled) {
				attempts.dispose();
			}
		}

		@SuppressWarnings("unchecked")
		private void value(@Nullable Object value) {
			end(value == null ? TaskResult.failure(description.index(), nullResult(description))
					: TaskResult.success(description.index(), (R) value));
		}

		private void end(TaskResult<R> outcome) {
			// Bit 2: the element has ended, once.
			if (call.cancelled || (ends.getAndUpdate(e -> e | 2) & 2) != 0) {
				return;
			}
			argument = null;
			task = null;
			try {
				core.taskEnded(System.nanoTime() - submittedAt);
			}
			finally {
				result = outcome;
				call.elementEnded(this);
			}
		}

		/** On the drain loop, once the call is cancelled: the attempt under way is cancelled too. */
		void cancel() {
			Task first = task;
			if (first != null) {
				core.dispatcher.cancel(first);
			}
			Disposable attempts = later;
			if (attempts != null) {
				attempts.dispose();
			}
		}
	}

	/** A task's null result, which a Flux cannot carry. */
	static FiberException nullResult(TaskName description) {
		return new FiberException("task " + description
				+ " returned null, which a Flux cannot carry; return a value or an Optional");
	}
}
