package io.fiberjvm.internal.pool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * At most so many worker processes starting at once; the others wait their turn, in order, so a pool of
 * hundreds of workers does not hold hundreds of starting JVMs in memory together.
 */
final class StartLimit {

	/** What one start's end lets happen: the next process to start, if any, and those that need not. */
	record Turn(@Nullable WorkerHost next, List<WorkerHost> unwanted) {
	}

	private final int limit;
	private final ArrayDeque<WorkerHost> waiting = new ArrayDeque<>();
	private int starting;

	StartLimit(int limit) {
		this.limit = limit;
	}

	/** Whether {@code host} may start now (it is then counted as starting); else it waits its turn. */
	synchronized boolean admit(WorkerHost host) {
		if (starting >= limit) {
			waiting.add(host);
			return false;
		}
		starting++;
		return true;
	}

	/**
	 * A start has ended (the process runs, or gave up): the next waiting process that is still {@code wanted}
	 * takes its turn, and those passed over are handed back.
	 */
	synchronized Turn ended(Predicate<WorkerHost> wanted) {
		starting--;
		List<WorkerHost> unwanted = new ArrayList<>();
		while (!waiting.isEmpty()) {
			WorkerHost host = waiting.poll();
			if (wanted.test(host)) {
				starting++;
				return new Turn(host, unwanted);
			}
			unwanted.add(host);
		}
		return new Turn(null, unwanted);
	}

	/** Every process still waiting, which will not start now. */
	synchronized List<WorkerHost> drain() {
		List<WorkerHost> dropped = new ArrayList<>(waiting);
		waiting.clear();
		return dropped;
	}
}
