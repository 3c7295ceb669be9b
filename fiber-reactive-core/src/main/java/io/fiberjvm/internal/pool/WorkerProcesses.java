package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The sessions of each worker process, by the process's name: they share its fate, so a death is blamed and a
 * suspect isolated process by process. Guarded by the dispatcher's lock.
 */
final class WorkerProcesses {

	private final Map<String, List<WorkerSession>> sessions = new HashMap<>();

	void add(WorkerSession session) {
		List<WorkerSession> process = sessions.computeIfAbsent(session.host, name -> new ArrayList<>(1));
		process.add(session);
		session.process = process;
	}

	void remove(WorkerSession session) {
		List<WorkerSession> process = sessions.get(session.host);
		if (process != null) {
			process.remove(session);
			if (process.isEmpty()) {
				sessions.remove(session.host);
			}
		}
	}

	void clear() {
		sessions.clear();
	}

	/**
	 * As {@code session} ends with its process or connection gone: when it held tasks and the sessions of its
	 * process, those not ended yet, hold more than one unanswered task together, each is marked as having shared a
	 * death, since the process may have died of any of those tasks, whichever session held it. A session that ends
	 * holding nothing (a retired one, say) marks none.
	 */
	void markSharedDeath(WorkerSession session) {
		if (session.pending.isEmpty()) {
			return;
		}
		List<WorkerSession> process = session.process;
		int held = 0;
		for (WorkerSession sibling : process) {
			if (!sibling.ended) {
				held += sibling.pending.size();
			}
		}
		if (held > 1) {
			for (WorkerSession sibling : process) {
				sibling.sharedDeath = true;
			}
		}
	}

	/**
	 * Whether the process of {@code session} may be handed {@code head} there: a suspect only to a process whose
	 * workers hold nothing, and nothing to a process one of whose workers holds a suspect, so a process that dies
	 * holding one held nothing else.
	 */
	static boolean allow(WorkerSession session, Task head) {
		if (session.process.size() <= 1) {
			return true;
		}
		for (WorkerSession sibling : session.process) {
			if (sibling != session && !sibling.chunks.isEmpty() && (head.isolated() || sibling.holdsIsolated())) {
				return false;
			}
		}
		return true;
	}
}
