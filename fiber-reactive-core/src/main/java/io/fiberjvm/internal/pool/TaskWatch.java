package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.frames.ChunkFrame;

/**
 * A worker's watch over the tasks it holds and the one it runs: it interrupts the running task when its caller
 * cancels it or its deadline passes, and, when an interrupted task is still running a grace period later, reports
 * the worker stuck. A task cancelled before it starts is skipped. Interrupts reach only the task they are for: one
 * is sent only while that task runs, under the lock its end takes, and the end clears any left over. Only cancels
 * of tasks the worker holds are kept, so one that crossed its task's answer is dropped.
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
		/** It was interrupted and went on past its grace: the worker was reported stuck, with the task's answer. */
		STUCK
	}

	private final Thread worker;
	private final ScheduledExecutorService timer;
	private final long graceNanos;
	/** Told of a task still running after its interrupt and grace; runs on the timer's thread. */
	private final Stuck stuck;

	private final Object lock = new Object();
	/** The chunks handed to this worker and not ended (two at most); under the lock. */
	private final ArrayDeque<ChunkFrame> held = new ArrayDeque<>(3);
	/** Tasks of held chunks cancelled before they started, which are skipped; under the lock. */
	private final Set<Long> cancelled = new HashSet<>();
	/** The task running, or -1; under the lock. */
	private long running = -1;
	private long timeoutNanos;
	/** When the running task's deadline passes, on {@link System#nanoTime()}'s clock; meaningful while it has one. */
	private long deadlineAt;
	/**
	 * The alarm that checks deadlines, and when it rings: it stays set between tasks and is set again only for a
	 * deadline it would ring too late for, so a task costs no timer work of its own.
	 */
	private @Nullable ScheduledFuture<?> deadlineAlarm;
	private long alarmAt;
	/** Why the running task was interrupted: {@link End#RAN} while it was not. */
	private End interrupted = End.RAN;
	private boolean reportedStuck;
	private @Nullable ScheduledFuture<?> graceAlarm;

	/**
	 * @param worker the thread that runs the tasks
	 * @param timer the process's timer for deadlines, which should drop cancelled alarms
	 * @param grace how long an interrupted task may go on
	 * @param stuck what reports a task still running after its grace
	 */
	TaskWatch(Thread worker, ScheduledExecutorService timer, Duration grace, Stuck stuck) {
		this.worker = worker;
		this.timer = timer;
		this.graceNanos = saturatedNanos(grace);
		this.stuck = stuck;
	}

	private static long saturatedNanos(Duration duration) {
		try {
			return duration.toNanos();
		}
		catch (ArithmeticException tooLong) {
			return Long.MAX_VALUE;
		}
	}

	/** On arrival of a chunk, before any cancel of its tasks can: the worker holds it. */
	void holding(ChunkFrame chunk) {
		synchronized (lock) {
			held.add(chunk);
		}
	}

	/** On the worker's thread: the worker is done with {@code chunk}; cancels of its tasks are forgotten. */
	void ended(ChunkFrame chunk) {
		synchronized (lock) {
			held.removeIf(each -> each == chunk);
			if (!cancelled.isEmpty()) {
				for (ChunkFrame.Task task : chunk.tasks()) {
					cancelled.remove(task.id());
				}
			}
		}
	}

	/** Under the lock: whether task {@code id} is in a chunk the worker holds. */
	private boolean holds(long id) {
		for (ChunkFrame chunk : held) {
			for (ChunkFrame.Task task : chunk.tasks()) {
				if (task.id() == id) {
					return true;
				}
			}
		}
		return false;
	}

	/** On arrival of a cancel: the running task among {@code ids} is interrupted, held ones are skipped when their turn comes. */
	void cancel(List<Long> ids) {
		synchronized (lock) {
			for (long id : ids) {
				if (id == running) {
					interrupt(End.CANCELLED);
				}
				else if (holds(id)) {
					cancelled.add(id);
				}
			}
		}
	}

	/**
	 * On the worker's thread: task {@code id} starts, to be interrupted {@code timeoutNanos} from now (0: never); false,
	 * and the task forgotten, when it was cancelled before it started.
	 */
	boolean start(long id, long timeoutNanos) {
		synchronized (lock) {
			if (cancelled.remove(id)) {
				return false;
			}
			running = id;
			this.timeoutNanos = timeoutNanos;
			interrupted = End.RAN;
			reportedStuck = false;
			if (timeoutNanos > 0) {
				deadlineAt = System.nanoTime() + timeoutNanos;
				if (deadlineAlarm == null || deadlineAt - alarmAt < 0) {
					setDeadlineAlarm(deadlineAt);
				}
			}
			return true;
		}
	}

	/** On the worker's thread: the task that started last has returned; how its run ended. */
	End end() {
		End ended;
		synchronized (lock) {
			ended = reportedStuck ? End.STUCK : interrupted;
			running = -1;
			if (graceAlarm != null) {
				graceAlarm.cancel(false);
				graceAlarm = null;
			}
		}
		// An interrupt sent for the task that just ended must not reach the next one.
		Thread.interrupted();
		return ended;
	}

	/** Under the lock: interrupts the running task for {@code why}, once, and gives it its grace. */
	private void interrupt(End why) {
		if (interrupted != End.RAN) {
			return;
		}
		interrupted = why;
		worker.interrupt();
		long id = running;
		graceAlarm = timer.schedule(() -> graceOver(id), graceNanos, TimeUnit.NANOSECONDS);
	}

	/** Under the lock: the deadline alarm rings at {@code at}, instead of when it was set to. */
	private void setDeadlineAlarm(long at) {
		if (deadlineAlarm != null) {
			deadlineAlarm.cancel(false);
		}
		alarmAt = at;
		deadlineAlarm = timer.schedule(this::deadlineCheck, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
	}

	/** The deadline alarm rang: the running task is interrupted if its deadline passed, else the alarm is set for it. */
	private void deadlineCheck() {
		synchronized (lock) {
			deadlineAlarm = null;
			if (running == -1 || timeoutNanos == 0 || interrupted != End.RAN) {
				// The next task with a deadline sets the alarm again.
				return;
			}
			if (System.nanoTime() - deadlineAt >= 0) {
				interrupt(End.TIMED_OUT);
			}
			else {
				setDeadlineAlarm(deadlineAt);
			}
		}
	}

	private void graceOver(long id) {
		long timeout;
		boolean wasCancelled;
		synchronized (lock) {
			if (running != id || interrupted == End.RAN || reportedStuck) {
				return;
			}
			reportedStuck = true;
			graceAlarm = null;
			timeout = timeoutNanos;
			wasCancelled = interrupted == End.CANCELLED;
		}
		stuck.report(id, timeout, wasCancelled);
	}

	/** The error a worker answers a task with when its watch interrupted it at its deadline. */
	static final class DeadlinePassed extends RuntimeException {

		private static final long serialVersionUID = 1L;

		DeadlinePassed(String message) {
			super(message);
		}
	}

	/** What hears of a task still running after its interrupt and grace. */
	@FunctionalInterface
	interface Stuck {

		/**
		 * Task {@code id}, whose deadline was {@code timeoutNanos} (0: none), did not stop when interrupted, for its
		 * deadline or because {@code cancelled}.
		 */
		void report(long id, long timeoutNanos, boolean cancelled);
	}
}
