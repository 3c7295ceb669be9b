package io.fiberjvm.manager;

import java.util.ArrayDeque;
import java.util.function.DoubleSupplier;

/**
 * The automatic restarts a manager made within its policy's window, and the wait before the next one; used under its
 * session's lock.
 */
final class RestartBudget {

	private final ManagerRestarts policy;
	/** Random numbers in [0, 1) for the jitter. */
	private final DoubleSupplier random;
	/** When each restart within the window was decided, in {@link System#nanoTime()}'s terms, oldest first. */
	private final ArrayDeque<Long> decided = new ArrayDeque<>();

	RestartBudget(ManagerRestarts policy, DoubleSupplier random) {
		this.policy = policy;
		this.random = random;
	}

	/**
	 * Takes a restart decided at {@code now} and returns how long it waits, in nanoseconds; or -1 when the window's
	 * restarts are spent, and the manager stays lost.
	 */
	long take(long now) {
		long window = policy.window().toNanos();
		while (!decided.isEmpty() && now - decided.peekFirst() >= window) {
			decided.pollFirst();
		}
		int earlier = decided.size();
		if (earlier >= policy.maxRestarts()) {
			return -1;
		}
		decided.addLast(now);
		double first = policy.backoff().toNanos();
		double longest = policy.maxBackoff().toNanos();
		// In doubles, which cannot overflow: first × 2^earlier, within the longest, moved by the jitter.
		double wait = Math.min(longest, first * Math.pow(2, earlier));
		double moved = wait + policy.jitter() * wait * (2 * random.getAsDouble() - 1);
		return (long) Math.max(0, Math.min(longest, moved));
	}

	/** Why a loss is final when {@link #take} returned -1. */
	String spent() {
		return "its restart policy allows " + policy.maxRestarts() + " restart" + (policy.maxRestarts() == 1 ? "" : "s")
				+ " within " + policy.window();
	}
}
