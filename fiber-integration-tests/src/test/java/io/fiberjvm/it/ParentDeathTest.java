package io.fiberjvm.it;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;

/** No child outlives its parent: children notice the lost connection and exit on their own. */
class ParentDeathTest {

	private static List<Long> childPids(ChildJvm parent) throws InterruptedException {
		List<Long> pids = new ArrayList<>();
		pids.add(Long.parseLong(parent.awaitLine("CHILD ").substring(6).trim()));
		pids.add(Long.parseLong(parent.awaitLine("CHILD ").substring(6).trim()));
		parent.awaitLine("READY");
		return pids;
	}

	/** Alive and not a zombie: a child of a stopped parent stays a zombie until the parent reaps it. */
	private static boolean alive(long pid) {
		if (!ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
			return false;
		}
		try {
			String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
			return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
		}
		catch (java.io.IOException gone) {
			return false;
		}
	}

	private static void killIfAlive(List<Long> pids) {
		pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
	}

	@Test
	void childrenExitWhenTheParentIsKilledWithSigkill() throws Exception {
		List<Long> pids = List.of();
		try (ChildJvm parent = ChildJvm.start(OrphanParent.class, Map.of())) {
			pids = childPids(parent);
			pids.forEach(pid -> await().until(() -> alive(pid)));
			parent.kill();
			for (long pid : pids) {
				await().atMost(Duration.ofSeconds(20)).until(() -> !alive(pid));
			}
		}
		finally {
			killIfAlive(pids);
		}
	}

	@Test
	void childrenExitWhenTheParentStopsAnsweringKeepAlives() throws Exception {
		List<Long> pids = List.of();
		try (ChildJvm parent = ChildJvm.start(OrphanParent.class, Map.of())) {
			pids = childPids(parent);
			// A stopped parent keeps its sockets open: only the missed keep-alives can tell.
			parent.signal("STOP");
			for (long pid : pids) {
				await().atMost(Duration.ofSeconds(30)).until(() -> !alive(pid));
			}
			parent.signal("CONT");
		}
		finally {
			killIfAlive(pids);
		}
	}
}
