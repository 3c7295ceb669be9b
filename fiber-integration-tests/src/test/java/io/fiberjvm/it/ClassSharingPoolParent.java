package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.IntStream;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.pool.FiberPool;

/**
 * A parent JVM for the class-sharing test of kept worker JVMs: runs two pools of two workers one after the other and
 * prints the worker JVMs each ran on, as {@code FIRST <pids>} and {@code SECOND <pids>}.
 */
public final class ClassSharingPoolParent {

	private static final Duration WAIT = Duration.ofSeconds(120);

	private static final FiberFunction<Integer, Long> PID = value -> {
		SimulatedWork.pause(2);
		return ProcessHandle.current().pid();
	};

	private ClassSharingPoolParent() {
	}

	public static void main(String[] args) {
		try (Fiber fiber = Fiber.builder().set("worker-idle-time", "10m").open()) {
			System.out.println("FIRST " + String.join(" ", pids(fiber)));
			System.out.println("SECOND " + String.join(" ", pids(fiber)));
		}
		System.out.println("DONE");
		System.out.flush();
	}

	/** The process ids of a new pool of two's JVMs, once both have answered. */
	private static List<String> pids(Fiber fiber) {
		FiberPool pool = fiber.pool(2).open();
		TreeSet<Long> pids = new TreeSet<>();
		List<Integer> round = IntStream.range(0, 20).boxed().toList();
		while (pids.size() < 2) {
			pids.addAll(pool.map(PID, round).collectList().block(WAIT));
		}
		pool.close();
		pool.onClose().block(WAIT);
		return pids.stream().map(String::valueOf).toList();
	}
}
