package io.fiberjvm.internal.pool;

import java.util.Collection;

/**
 * Where the next chunks go: the task at the head of the queue goes, with the tasks behind it that may share its
 * chunk, to an idle session first, and to a busy one only when the chunk is known to be short; a task that goes alone
 * goes only to a session holding nothing. Under the dispatcher's lock.
 */
final class ChunkPlacement {

	private ChunkPlacement() {
	}

	/** Sends chunks from {@code queue} to those of {@code sessions} that can take them, until none can or none waits. */
	static void place(TaskQueue queue, Collection<WorkerSession> sessions, int chunkBytes) {
		while (true) {
			Task head = queue.head();
			if (head == null) {
				return;
			}
			int live = 0;
			for (WorkerSession s : sessions) {
				if (s.taking()) {
					live++;
				}
			}
			// A task that goes alone goes to a worker that holds nothing.
			int size = head.alone() ? 1 : ChunkSizer.size(head.function.meanNanos, head.chunkSize, queue.size(), live);
			WorkerSession target = null;
			for (WorkerSession s : sessions) {
				if (s.canTake() && s.chunks.isEmpty() && WorkerProcesses.allow(s, head)) {
					target = s;
					break;
				}
			}
			if (target == null && !head.alone() && ChunkSizer.mayPrefetch(head.function.meanNanos, size)) {
				for (WorkerSession s : sessions) {
					if (s.canTake() && WorkerProcesses.allow(s, head)) {
						target = s;
						break;
					}
				}
			}
			if (target == null) {
				return;
			}
			target.send(queue, head.function, size, chunkBytes);
		}
	}
}
