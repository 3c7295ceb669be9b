package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;

/**
 * One worker process of a pool and the workers it hosts, which live and die with it. Guarded by the fleet
 * that owns it.
 */
final class WorkerHost {

	/** One worker: a session with the pool, hosted by a worker process, from its start to its end. */
	static final class Slot {
		final String name;
		final WorkerHost host;
		boolean retiring;
		boolean attached;

		Slot(String name, WorkerHost host) {
			this.name = name;
			this.host = host;
		}
	}

	final String name;
	final List<Slot> slots = new ArrayList<>();
	@Nullable FiberProcess process;
	/** Whether its start was asked for; until then it waits its turn (the start limit). */
	boolean launched;
	/** Why it did not come to run its target, as its process said: a start timeout, or an end before connecting. */
	@Nullable Throwable startError;
	/** Whether a start timeout stopped it, its own or the fleet's: that is a failed start, whatever signal ended it. */
	boolean startTimedOut() {
		return startError instanceof ProcessFailedException timedOut && timedOut.exitCode() == -1;
	}

	/** Whether it is being stopped because one of its workers' sessions failed: its other workers are not admitted. */
	boolean stopping;

	WorkerHost(String name) {
		this.name = name;
	}

	/** Whether none of its workers is wanted any more. */
	boolean retiring() {
		return slots.stream().allMatch(s -> s.retiring);
	}

	/** How logs name it, losing {@code lost} of its workers. */
	String describe(List<Slot> lost) {
		return slots.size() == 1 ? "worker " + name
				: "worker process " + name + " (workers " + String.join(", ", lost.stream().map(s -> s.name).toList()) + ")";
	}

	/** Whether none of its workers has a session yet: the process is still starting. */
	boolean starting() {
		return slots.stream().noneMatch(s -> s.attached);
	}
}
