package io.fiberjvm.testing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Watches this JVM's Reactor timer threads ({@code parallel-*}, {@code single-*}) and records each run of samples
 * in which one was busy throughout for at least {@link #STALL}: every {@code Mono.delay}, timeout and RSocket
 * keep-alive of the JVM waits behind such a thread, so a test that waits for one of them hangs for no reason of
 * its own.
 *
 * <p>A thread is idle when it waits for its next task (parked in its executor's queue); any other sample is busy.
 * Tasks on these threads last microseconds, so a thread busy in the same method at every sample of {@link #STALL}
 * (blocked, or looping) runs something that should not be there: the record keeps its stack as last seen.
 */
public final class SchedulerStalls implements AutoCloseable {

	/** How long a timer thread may stay busy before it counts as stalled. */
	public static final Duration STALL = Duration.ofSeconds(15);

	private static final int FRAMES = 40;

	/** Busy samples a stall takes at least, so a sampler held up between two samples does not make one. */
	private static final int MIN_SAMPLES = 15;

	private static final SchedulerStalls WATCH = new SchedulerStalls(STALL,
			name -> name.startsWith("parallel-") || name.startsWith("single-"));

	/** One stall: the thread, how long it was busy when last seen, and its stack then. */
	public record Stall(String thread, Duration busy, String stack) {

		@Override
		public String toString() {
			return "\"" + thread + "\" busy for " + busy.toSeconds() + " s (or longer), last seen at:\n" + stack;
		}
	}

	private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

	private final long stallNanos;

	private final long sampleMillis;

	private final Predicate<String> watched;

	private final Thread sampler;

	private final Map<Long, BusyRun> runs = new HashMap<>();

	/** Where in {@link #recorded} each thread's stall going on now is. */
	private final Map<Long, Integer> ongoing = new HashMap<>();

	private final List<Stall> recorded = new ArrayList<>();

	/**
	 * A watch of its own, sampling its threads 20 times in each stall.
	 *
	 * @param stall how long a watched thread may stay busy before it counts as stalled
	 * @param watched which threads, by name
	 */
	SchedulerStalls(Duration stall, Predicate<String> watched) {
		this.stallNanos = stall.toNanos();
		this.sampleMillis = Math.max(1, stall.toMillis() / 20);
		this.watched = watched;
		this.sampler = new Thread(this::sampleForEver, "scheduler-stall-watch");
		sampler.setDaemon(true);
		sampler.start();
	}

	/** The JVM's watch, started on first use. */
	public static SchedulerStalls watch() {
		return WATCH;
	}

	/** How many stalls have been recorded, ended or not; a stall still going on counts once. */
	public synchronized int count() {
		return recorded.size();
	}

	/** The stalls recorded from the {@code since}-th on, each as last seen. */
	public synchronized List<Stall> since(int since) {
		return List.copyOf(recorded.subList(Math.min(since, recorded.size()), recorded.size()));
	}

	private void sampleForEver() {
		while (true) {
			try {
				TimeUnit.MILLISECONDS.sleep(sampleMillis);
				sample();
			}
			catch (InterruptedException e) {
				return;
			}
			catch (RuntimeException e) {
				// A thread that ended between the listing and its dump: the next sample sees the rest.
			}
		}
	}

	private void sample() {
		long now = System.nanoTime();
		Map<Long, ThreadInfo> timers = new HashMap<>();
		for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds(), FRAMES)) {
			if (info != null && watched.test(info.getThreadName())) {
				timers.put(info.getThreadId(), info);
			}
		}
		synchronized (this) {
			runs.keySet().retainAll(timers.keySet());
			ongoing.keySet().retainAll(timers.keySet());
			timers.forEach((id, info) -> {
				if (isIdle(info)) {
					runs.remove(id);
					ongoing.remove(id);
					return;
				}
				// A run of busy samples in the same method: a thread running one short task after another is in a
				// different one at some sample.
				String where = top(info);
				BusyRun run = runs.get(id);
				if (run == null || !run.where.equals(where)) {
					run = new BusyRun(where, now);
					runs.put(id, run);
					ongoing.remove(id);
				}
				run.samples++;
				long busy = now - run.since;
				if (busy < stallNanos || run.samples < MIN_SAMPLES) {
					return;
				}
				Stall stall = new Stall(info.getThreadName(), Duration.ofNanos(busy), stack(info));
				Integer at = ongoing.get(id);
				if (at == null) {
					ongoing.put(id, recorded.size());
					recorded.add(stall);
				}
				else {
					recorded.set(at, stall);
				}
			});
		}
	}

	/** The stalls going on now, each as last seen. */
	public synchronized List<Stall> ongoing() {
		return ongoing.values().stream().map(recorded::get).toList();
	}

	private static String top(ThreadInfo info) {
		StackTraceElement[] stack = info.getStackTrace();
		return stack.length == 0 ? "" : stack[0].getClassName() + "." + stack[0].getMethodName();
	}

	/** A thread's busy samples in a row, all in one method. */
	private static final class BusyRun {

		final String where;
		final long since;
		int samples;

		BusyRun(String where, long since) {
			this.where = where;
			this.since = since;
		}
	}

	/** Stops sampling; what was recorded stays. */
	@Override
	public void close() {
		sampler.interrupt();
	}

	/** Parked in its executor's queue, waiting for a task. */
	private static boolean isIdle(ThreadInfo info) {
		for (StackTraceElement frame : info.getStackTrace()) {
			if (frame.getMethodName().equals("take") || frame.getMethodName().equals("poll")) {
				String type = frame.getClassName();
				if (type.endsWith("DelayedWorkQueue") || type.endsWith("BlockingQueue")) {
					return true;
				}
			}
		}
		return false;
	}

	private static String stack(ThreadInfo info) {
		return "\t" + ThreadDump.describe(info);
	}
}
