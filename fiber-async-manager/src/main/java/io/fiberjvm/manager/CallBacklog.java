package io.fiberjvm.manager;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a manager's frames wait in while its process is not ready, and what a restart sends again: the frames made
 * during a restart, in order, and a copy of each object's creation while its proxy is reachable. Not thread-safe: the
 * manager's session uses it under its own lock.
 */
final class CallBacklog {

	private final List<byte[]> held = new ArrayList<>();
	private final Map<Long, byte[]> creations = new LinkedHashMap<>();
	/** Objects whose proxy went while a process was not ready: forgotten once their creation went to it. */
	private final Set<Long> forgotten = new HashSet<>();

	/** Keeps {@code creation}, a copy of object {@code object}'s creation frame, for every process to come. */
	void keep(long object, byte[] creation) {
		creations.put(object, creation);
	}

	/** Holds {@code frame} until the next process is ready. */
	void hold(byte[] frame) {
		held.add(frame);
	}

	/**
	 * Object {@code object}'s proxy is gone: no process need make it again. When a process that is not ready yet
	 * ({@code notReady}) may still get calls held for it, its creation goes to that one first.
	 */
	void forget(long object, boolean notReady) {
		if (notReady) {
			forgotten.add(object);
		}
		else {
			creations.remove(object);
		}
	}

	/** What goes down to a process that just became ready, in order: every creation kept, then the frames held. */
	List<byte[]> release() {
		List<byte[]> going = new ArrayList<>(creations.values());
		going.addAll(held);
		held.clear();
		creations.keySet().removeAll(forgotten);
		forgotten.clear();
		return going;
	}

	/** Drops the frames held: their calls failed. */
	void dropHeld() {
		held.clear();
	}

	/** Drops everything: the manager is lost. */
	void clear() {
		held.clear();
		creations.clear();
		forgotten.clear();
	}
}
