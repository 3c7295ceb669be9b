package io.fiberjvm.manager;

import java.time.Duration;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * A manager process's watch over its objects' calls that have a deadline: it interrupts a call still running at its
 * deadline and, when that call is still running a grace period later, tells whoever gives its object up. One alarm
 * serves every call. An interrupt reaches only the call it is for: it is sent only while the call runs, under the
 * lock the call's end takes, and the end clears one left over.
 */
final class CallWatch {

	/** How a watched call's run ended. */
	enum End {
		/** It ran its course within its deadline. */
		RAN,
		/** It ran past its deadline, was interrupted, and returned within the grace. */
		TIMED_OUT,
		/** It was interrupted and went on past its grace: it was answered, and its object given up, meanwhile. */
		STUCK
	}

	private final ScheduledExecutorService timer;
	private final long graceNanos;

	/** Guards what follows and every watched call's state. */
	private final Object lock = new Object();
	/** The calls running with a deadline that has not rung yet. */
	private final Set<Watched> running = new HashSet<>();
	/**
	 * The alarm that checks deadlines, and when it rings: it stays set between calls and is set again only for a
	 * deadline it would ring too late for, so a call costs no timer work of its own.
	 */
	private @Nullable ScheduledFuture<?> alarm;
	private long alarmAt;

	/**
	 * @param timer the process's timer, which should drop cancelled alarms
	 * @param grace how long an interrupted call may go on
	 */
	CallWatch(ScheduledExecutorService timer, Duration grace) {
		this.timer = timer;
		long nanos;
		try {
			nanos = grace.toNanos();
		}
		catch (ArithmeticException tooLong) {
			nanos = Long.MAX_VALUE;
		}
		this.graceNanos = nanos;
	}

	/**
	 * On the thread about to run a call: watches it, to be interrupted {@code timeoutNanos} from now;
	 * {@code stuck} runs on the timer's thread, under the watch's lock, if it is still running its grace after that.
	 */
	Watched start(long timeoutNanos, Runnable stuck) {
		Watched watched = new Watched(Thread.currentThread(), System.nanoTime() + timeoutNanos, stuck);
		synchronized (lock) {
			running.add(watched);
			if (alarm == null || watched.deadlineAt - alarmAt < 0) {
				setAlarm(watched.deadlineAt);
			}
		}
		return watched;
	}

	/** Under the lock: the alarm rings at {@code at}, instead of when it was set to. */
	private void setAlarm(long at) {
		if (alarm != null) {
			alarm.cancel(false);
		}
		alarmAt = at;
		alarm = timer.schedule(this::check, Math.max(0, at - System.nanoTime()), TimeUnit.NANOSECONDS);
	}

	/** The alarm rang: calls past their deadline are interrupted, and the alarm is set for the next deadline. */
	private void check() {
		synchronized (lock) {
			alarm = null;
			long now = System.nanoTime();
			Watched next = null;
			for (Iterator<Watched> each = running.iterator(); each.hasNext();) {
				Watched watched = each.next();
				if (now - watched.deadlineAt >= 0) {
					each.remove();
					watched.interrupt();
				}
				else if (next == null || watched.deadlineAt - next.deadlineAt < 0) {
					next = watched;
				}
			}
			if (next != null) {
				setAlarm(next.deadlineAt);
			}
		}
	}

	/** One call under the watch. */
	final class Watched {

		private final Thread thread;
		private final long deadlineAt;
		private final Runnable stuck;
		/** How the run stands: {@link End#RAN} while it runs within its deadline; under the watch's lock. */
		private End state = End.RAN;
		private boolean ended;
		private @Nullable ScheduledFuture<?> grace;

		private Watched(Thread thread, long deadlineAt, Runnable stuck) {
			this.thread = thread;
			this.deadlineAt = deadlineAt;
			this.stuck = stuck;
		}

		/** Under the lock: the call's deadline passed while it ran; it is interrupted and given its grace. */
		private void interrupt() {
			state = End.TIMED_OUT;
			thread.interrupt();
			grace = timer.schedule(this::graceOver, graceNanos, TimeUnit.NANOSECONDS);
		}

		private void graceOver() {
			synchronized (lock) {
				if (ended || state != End.TIMED_OUT) {
					return;
				}
				state = End.STUCK;
				// Under the lock, so the call's end, should it return now, waits until its object is given up.
				stuck.run();
			}
		}

		/** On the call's thread, once it returned: how its run ended. */
		End end() {
			End how;
			synchronized (lock) {
				ended = true;
				how = state;
				running.remove(this);
				if (grace != null) {
					grace.cancel(false);
				}
			}
			// An interrupt sent for this call must not reach the next one this thread runs.
			Thread.interrupted();
			return how;
		}
	}

	/** What a call that ran past its deadline, was interrupted and returned, is answered with. */
	static final class DeadlinePassed extends RuntimeException {

		private static final long serialVersionUID = 1L;

		DeadlinePassed(String message) {
			super(message);
		}
	}

	/** What a call that did not stop within its grace is answered with, as its object is given up. */
	static final class GivenUp extends RuntimeException {

		private static final long serialVersionUID = 1L;

		GivenUp(String message) {
			super(message);
		}
	}

	/** What a later call on an object given up as stuck is answered with. */
	static final class Stuck extends RuntimeException {

		private static final long serialVersionUID = 1L;

		Stuck(String message) {
			super(message);
		}
	}
}
