package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A worker session's pending table: its tasks by id, with no box per id. Open addressing with linear probing over a
 * power-of-two array, kept at most half full, the ids beside the tasks so a probe reads no task; a removal shifts the
 * entries after it back, so no tombstones pile up as a long map turns over millions of tasks. Not thread-safe: the
 * dispatcher's lock guards it.
 */
final class TaskTable {

	private static final int FIRST_CAPACITY = 16;

	private @Nullable Task[] slots = new Task[FIRST_CAPACITY];
	private long[] ids = new long[FIRST_CAPACITY];
	private int size;

	int size() {
		return size;
	}

	boolean isEmpty() {
		return size == 0;
	}

	void put(Task task) {
		if (2 * (size + 1) > slots.length) {
			grow();
		}
		int mask = slots.length - 1;
		int i = home(task.id, mask);
		while (true) {
			if (slots[i] == null) {
				slots[i] = task;
				ids[i] = task.id;
				size++;
				return;
			}
			if (ids[i] == task.id) {
				slots[i] = task;
				return;
			}
			i = (i + 1) & mask;
		}
	}

	@Nullable Task get(long id) {
		int mask = slots.length - 1;
		for (int i = home(id, mask);; i = (i + 1) & mask) {
			Task there = slots[i];
			if (there == null || ids[i] == id) {
				return there;
			}
		}
	}

	@Nullable Task remove(long id) {
		int mask = slots.length - 1;
		int i = home(id, mask);
		while (true) {
			if (slots[i] == null) {
				return null;
			}
			if (ids[i] == id) {
				break;
			}
			i = (i + 1) & mask;
		}
		Task removed = slots[i];
		slots[i] = null;
		size--;
		// Entries after the hole that would no longer be found from their home move into it.
		int hole = i;
		for (int j = (i + 1) & mask;; j = (j + 1) & mask) {
			Task moved = slots[j];
			if (moved == null) {
				return removed;
			}
			int home = home(ids[j], mask);
			// Whether home lies cyclically in (hole, j]: then the entry stays where it is.
			boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
			if (!stays) {
				slots[hole] = moved;
				ids[hole] = ids[j];
				slots[j] = null;
				hole = j;
			}
		}
	}

	/** Every task in the table, in no particular order. */
	List<Task> values() {
		List<Task> all = new ArrayList<>(size);
		for (Task task : slots) {
			if (task != null) {
				all.add(task);
			}
		}
		return all;
	}

	void clear() {
		if (size > 0) {
			slots = new Task[FIRST_CAPACITY];
			ids = new long[FIRST_CAPACITY];
			size = 0;
		}
	}

	private void grow() {
		@Nullable Task[] old = slots;
		slots = new Task[old.length * 2];
		ids = new long[old.length * 2];
		size = 0;
		for (Task task : old) {
			if (task != null) {
				put(task);
			}
		}
	}

	/**
	 * A multiplicative hash: ids in a run would sit side by side as one long cluster, which every removal from its
	 * front would scan to its end.
	 */
	private static int home(long id, int mask) {
		return (int) ((id * 0x9E3779B97F4A7C15L) >>> 32) & mask;
	}
}
