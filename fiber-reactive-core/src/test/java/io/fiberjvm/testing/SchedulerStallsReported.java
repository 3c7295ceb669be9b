package io.fiberjvm.testing;

import java.util.Collection;
import java.util.List;

/**
 * Fails a test during which a Reactor timer thread of this JVM stalled ({@link SchedulerStalls}), naming the thread
 * and what it ran; a test that failed on its own (a wait that timed out, most often) names a stall still going on.
 * Found through {@code junit.jupiter.extensions.autodetection.enabled} by the suites with this test-jar.
 */
public final class SchedulerStallsReported extends FindingsReported<SchedulerStalls.Stall> {

	@Override
	int mark() {
		return SchedulerStalls.watch().count();
	}

	@Override
	List<SchedulerStalls.Stall> since(int mark) {
		return SchedulerStalls.watch().since(mark);
	}

	@Override
	Collection<SchedulerStalls.Stall> ongoing() {
		return SchedulerStalls.watch().ongoing();
	}

	@Override
	String heading() {
		return "a Reactor timer thread of the test's JVM stalled while this test ran (every delay, timeout and keep-alive "
				+ "scheduled on it waits behind it)";
	}
}
