package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.internal.pool.WorkerHost.Slot;

/**
 * A pool's workers by name, each a slot in the process that hosts it, and how many were started, lost while wanted
 * and started to replace lost ones. Guarded by the fleet's lock.
 */
final class WorkerSlots {

	private final String pool;
	private final int perProcess;
	private final Map<String, Slot> slots = new LinkedHashMap<>();
	private long started;
	private long lost;
	private long replaced;
	/** Lost workers not yet replaced. */
	private long toReplace;
	private int workerCounter;
	private int hostCounter;

	WorkerSlots(String pool, int perProcess) {
		this.pool = pool;
		this.perProcess = perProcess;
	}

	@Nullable Slot get(String worker) {
		return slots.get(worker);
	}

	/** Whether {@code slot} is still one of the pool's workers. */
	boolean holds(Slot slot) {
		return slots.get(slot.name) == slot;
	}

	Collection<Slot> all() {
		return slots.values();
	}

	boolean isEmpty() {
		return slots.isEmpty();
	}

	/** Workers wanted and not there; losses the pool no longer needs made good are not replacements. */
	long missing(int wanted) {
		long active = slots.values().stream().filter(s -> !s.retiring).count();
		long missing = wanted - active;
		toReplace = Math.min(toReplace, Math.max(0, missing));
		return missing;
	}

	/**
	 * Marks retiring as many workers as are active beyond {@code wanted} and returns them: those still starting first,
	 * as they hold no tasks, then the newest, so that whole processes empty and exit.
	 */
	List<Slot> retireBeyond(int wanted) {
		List<Slot> active = slots.values().stream().filter(s -> !s.retiring).toList();
		List<Slot> order = new ArrayList<>(active.stream().filter(s -> !s.attached).toList());
		Collections.reverse(order);
		List<Slot> attached = new ArrayList<>(active.stream().filter(s -> s.attached).toList());
		Collections.reverse(attached);
		order.addAll(attached);
		List<Slot> surplus = new ArrayList<>();
		for (int i = 0; i < active.size() - wanted; i++) {
			Slot slot = order.get(i);
			slot.retiring = true;
			surplus.add(slot);
		}
		return surplus;
	}

	/** Of {@code wanted} workers, those not attached yet, and those with no slot yet (a start put off by a backoff). */
	long starting(int wanted) {
		long active = 0;
		long detached = 0;
		for (Slot slot : slots.values()) {
			if (!slot.retiring) {
				active++;
				detached += slot.attached ? 0 : 1;
			}
		}
		return detached + Math.max(0, wanted - active);
	}

	/** A process to start with {@code workers} workers; named after its worker when it hosts one. */
	WorkerHost newHost(int workers) {
		WorkerHost host = new WorkerHost(perProcess == 1 ? pool + "-w" + (workerCounter + 1) : pool + "-p" + (++hostCounter));
		for (int i = 0; i < workers; i++) {
			Slot slot = new Slot(pool + "-w" + (++workerCounter), host);
			host.slots.add(slot);
			slots.put(slot.name, slot);
			started++;
			if (toReplace > 0) {
				toReplace--;
				replaced++;
			}
		}
		return host;
	}

	/** The workers of {@code host} that were still the pool's, now gone. */
	List<Slot> remove(WorkerHost host) {
		List<Slot> gone = new ArrayList<>();
		for (Slot slot : host.slots) {
			if (slots.remove(slot.name) != null) {
				gone.add(slot);
			}
		}
		return gone;
	}

	/** {@code count} workers were lost while the pool wanted them: they are to be replaced. */
	void lost(int count) {
		lost += count;
		toReplace += count;
	}

	/** Each worker now, for {@code fiber ps}: name, its process's name, and waiting, starting, working or retiring. */
	List<RunStatus.Worker> states() {
		return slots.values().stream().map(slot -> new RunStatus.Worker(slot.name, slot.host.name,
				slot.retiring ? "retiring" : slot.attached ? "working" : slot.host.launched ? "starting" : "waiting"))
				.toList();
	}

	/** The processes whose workers take tasks now, each once. */
	List<FiberProcess> processes() {
		return slots.values().stream().filter(s -> s.attached && !s.retiring).map(s -> s.host.process)
				.filter(p -> p != null && p.isAlive()).distinct().toList();
	}

	/** Workers started, lost while wanted, and started to replace lost ones. */
	long[] counters() {
		return new long[] {started, lost, replaced};
	}
}
