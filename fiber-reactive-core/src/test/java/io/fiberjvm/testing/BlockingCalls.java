package io.fiberjvm.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The blocking calls BlockHound saw on this JVM's non-blocking threads ({@link BlockingCallsRecorded}), in order:
 * {@link BlockingCallsReported} fails the test during which one was made, unless the test claimed it.
 */
public final class BlockingCalls {

	private static final int FRAMES = 40;

	private static final int KEPT_WITH_STACKS = 200;

	/** One blocking call: the thread, the blocking method, and the stack that called it. */
	public record Call(String thread, String method, String stack) {

		@Override
		public String toString() {
			return method + " on \"" + thread + "\":\n" + stack;
		}
	}

	/** A recorded call, and whether a test claimed it. */
	private static final class Entry {

		final Call call;
		boolean claimed;

		Entry(Call call) {
			this.call = call;
		}
	}

	private static final List<Entry> CALLS = new ArrayList<>();

	private BlockingCalls() {
	}

	static void record(String method, Thread thread, StackTraceElement[] stack) {
		StringBuilder text = new StringBuilder();
		synchronized (BlockingCalls.class) {
			// A call on a busy path recurs: the first ones say where; the rest are counted, without their stacks.
			if (CALLS.size() < KEPT_WITH_STACKS) {
				for (int i = 0; i < Math.min(stack.length, FRAMES); i++) {
					text.append("\tat ").append(stack[i]).append('\n');
				}
			}
			else {
				text.append("\t(stack not kept: ").append(KEPT_WITH_STACKS).append(" calls were recorded before this one)\n");
			}
			CALLS.add(new Entry(new Call(thread.getName(), method, text.toString())));
		}
	}

	/** How many calls have been recorded so far: what {@link #since} counts from. */
	public static synchronized int mark() {
		return CALLS.size();
	}

	/** The calls recorded from the {@code mark}-th on and not claimed. */
	public static synchronized List<Call> since(int mark) {
		List<Call> calls = new ArrayList<>();
		for (Entry entry : CALLS.subList(Math.min(mark, CALLS.size()), CALLS.size())) {
			if (!entry.claimed) {
				calls.add(entry.call);
			}
		}
		return calls;
	}

	/** Claims the calls from the {@code mark}-th on that {@code expected} matches, for a test that made them on purpose. */
	public static synchronized List<Call> claim(int mark, Predicate<Call> expected) {
		List<Call> claimed = new ArrayList<>();
		for (Entry entry : CALLS.subList(Math.min(mark, CALLS.size()), CALLS.size())) {
			if (!entry.claimed && expected.test(entry.call)) {
				entry.claimed = true;
				claimed.add(entry.call);
			}
		}
		return claimed;
	}
}
