package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A worker's watch over the task it runs: it interrupts the task when its caller cancels it or its deadline passes,
 * and, when a task interrupted at its deadline is still running a grace period later, reports the worker stuck. A
 * task cancelled before it starts is skipped. Interrupts reach only the task they are for: one is sent only while
 * that task runs, under the lock its end takes, and the end clears any left over.
 */
final class TaskWatch {

	/** How a task's run ended, as far as the watch is concerned. */
	enum End {
		/** It ran its course. */
		RAN,
		/** Its caller cancelled it while it ran: its answer is discarded. */
		CANCELLED,
		/** It ran past its deadline, was interrupted, and stopped within the grace. */
		TIMED_OUT,
		/** It ran past its deadline and its grace: the worker was reported stuck, with the task's answer. */
		STUCK
	}

	private final Thread worker;
	private final ScheduledExecutorService timer;
	private final Duration grace;
	/** Told of a task still running after its deadline and grace; runs on the timer's thread. */
	private final Stuck stuck;
	/** Tasks cancelled before they started, which are skipped. */
	private final Set<Long> cancelled = ConcurrentHashMap.newKeySet();

	private final Object lock = new Object();
	/** The task running, or -1; under the lock. */
	private long running = -1;
	private long timeoutNanos;
	private End end = End.RAN;
	private @Nullable ScheduledFuture<?> alarm;

	/**
	 * @param worker the thread that runs the tasks
	 * @param timer the process's timer for deadlines
	 * @param grace how long a task interrupted at its deadline may go on
	 * @param stuck what reports a task still running after its grace
	 */
	TaskWatch(Thread worker, ScheduledExecutorService timer, Duration grace, Stuck stuck) {
		this.worker = worker;
		this.timer = timer;
		this.grace = grace;
		this.stuck = stuck;
	}

	/** On arrival of a cancel: the running task among {@code ids} is interrupted, the others are skipped when their turn comes. */
	void cancel(List<Long> ids) {
		synchronized (lock) {
			for (long id : ids) {
				if (id == running) {
					if (end == End.RAN) {
						end = End.CANCELLED;
						worker.interrupt();
					}
				}
				else {
					cancelled.add(id);
				}
			}
		}
	}

	/** Whether task {@code id} was cancelled before it started; it is then forgotten. */
	boolean skip(long id) {
		return cancelled.remove(id);
	}

	/** On the worker's thread: task {@code id} starts, to be interrupted {@code timeoutNanos} from now (0: never). */
	void start(long id, long timeoutNanos) {
		synchronized (lock) {
			running = id;
			this.timeoutNanos = timeoutNanos;
			end = End.RAN;
			alarm = timeoutNanos > 0 ? timer.schedule(() -> deadline(id), timeoutNanos, TimeUnit.NANOSECONDS) : null;
		}
	}

	/** On the worker's thread: the task that started last has returned; how its run ended. */
	End end() {
		End ended;
		synchronized (lock) {
			ended = end;
			running = -1;
			if (alarm != null) {
				alarm.cancel(false);
				alarm = null;
			}
		}
		// An interrupt sent for the task that just ended must not reach the next one.
		Thread.interrupted();
		return ended;
	}

	private void deadline(long id) {
		synchronized (lock) {
			if (running != id || end != End.RAN) {
				return;
			}
			end = End.TIMED_OUT;
			worker.interrupt();
			alarm = timer.schedule(() -> graceOver(id), grace.toNanos(), TimeUnit.NANOSECONDS);
		}
	}

	private void graceOver(long id) {
		long timeout;
		synchronized (lock) {
			if (running != id || end != End.TIMED_OUT) {
				return;
			}
			end = End.STUCK;
			alarm = null;
			timeout = timeoutNanos;
		}
		stuck.report(id, timeout);
	}

	/** What hears of a task still running after its deadline and grace. */
	@FunctionalInterface
	interface Stuck {

		/** Task {@code id}, whose deadline was {@code timeoutNanos}, did not stop when interrupted. */
		void report(long id, long timeoutNanos);
	}
}
