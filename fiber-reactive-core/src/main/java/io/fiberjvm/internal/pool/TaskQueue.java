package io.fiberjvm.internal.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The tasks waiting for a worker, in the order they go: a retry, and a task sent back from a lost worker, ahead of
 * fresh work, which goes in the order it came. A task cancelled before it is queued (while its submission waited for
 * the lock) is not queued; one cancelled while it waits stays in place, skipped, until it reaches the head. Guarded
 * by the dispatcher's lock.
 */
final class TaskQueue {

	private final ArrayDeque<Task> tasks = new ArrayDeque<>();
	/** The tasks waiting, cancelled ones left out. */
	private long size;

	long size() {
		return size;
	}

	/** Queues {@code task}: a retry goes first, since an ordered call is waiting for it. */
	void add(Task task) {
		if (task.cancelled) {
			return;
		}
		task.queued = true;
		task.queuedAt = System.nanoTime();
		task.queuedLast = task.attempt == 1;
		if (task.attempt > 1) {
			tasks.addFirst(task);
		}
		else {
			tasks.addLast(task);
		}
		size++;
	}

	/** Queues first attempts, in order. */
	void addAll(List<Task> batch) {
		long now = System.nanoTime();
		for (Task task : batch) {
			if (!task.cancelled) {
				task.queued = true;
				task.queuedAt = now;
				task.queuedLast = true;
				tasks.addLast(task);
				size++;
			}
		}
	}

	/** Queues {@code back} ahead of everything, in its order: their callers are waiting for them. */
	void putBack(List<Task> back) {
		long now = System.nanoTime();
		for (int i = back.size() - 1; i >= 0; i--) {
			Task task = back.get(i);
			task.queued = true;
			task.queuedAt = now;
			task.queuedLast = false;
			tasks.addFirst(task);
		}
		size += back.size();
	}

	/** Takes {@code task} out of the waiting, if it waits. */
	void remove(Task task) {
		if (task.queued) {
			task.queued = false;
			size--;
		}
	}

	/**
	 * How long the task that has waited longest has waited at {@code now}, in nanoseconds; 0 when none waits. Tasks put
	 * ahead (retries, and tasks a lost worker held) are looked at, then the first that went in behind the others: those
	 * after it went in later.
	 */
	long longestWait(long now) {
		// Drops cancelled tasks from the front first, so that a large cancelled call is not walked at every look.
		head();
		long oldest = Long.MAX_VALUE;
		for (Task task : tasks) {
			if (!task.queued) {
				continue;
			}
			oldest = Math.min(oldest, task.queuedAt);
			if (task.queuedLast) {
				break;
			}
		}
		return oldest == Long.MAX_VALUE ? 0 : Math.max(0, now - oldest);
	}

	/** The first task waiting, or null when none does. */
	@Nullable Task head() {
		Task head = tasks.peekFirst();
		while (head != null && !head.queued) {
			tasks.pollFirst();
			head = tasks.peekFirst();
		}
		return head;
	}

	/** Takes the task {@link #head()} gave. */
	void takeHead() {
		Task head = tasks.pollFirst();
		if (head != null) {
			head.queued = false;
			size--;
		}
	}

	/** Every task waiting, taken out. */
	List<Task> drain() {
		List<Task> drained = new ArrayList<>();
		for (Task task : tasks) {
			if (task.queued) {
				task.queued = false;
				drained.add(task);
			}
		}
		tasks.clear();
		size = 0;
		return drained;
	}
}
