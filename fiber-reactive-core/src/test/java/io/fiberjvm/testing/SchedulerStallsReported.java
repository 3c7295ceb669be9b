package io.fiberjvm.testing;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Fails a test during which a Reactor timer thread of this JVM stalled ({@link SchedulerStalls}), naming the thread
 * and what it ran; a test that failed on its own (a wait that timed out, most often) says so in its message too.
 * Found through {@code junit.jupiter.extensions.autodetection.enabled} by the suites with this test-jar.
 */
public final class SchedulerStallsReported implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {

	private static final ExtensionContext.Namespace HERE = ExtensionContext.Namespace.create(SchedulerStallsReported.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		context.getStore(HERE).put("from", SchedulerStalls.watch().count());
	}

	@Override
	public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
		// A stall that began before this test and goes on may be why it failed: said too.
		Set<SchedulerStalls.Stall> stalls = new LinkedHashSet<>(stallsOf(context));
		stalls.addAll(SchedulerStalls.watch().ongoing());
		if (stalls.isEmpty()) {
			throw failure;
		}
		context.getStore(HERE).put("reported", true);
		throw new AssertionError(failure + "\n" + describe(stalls), failure);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (context.getStore(HERE).get("reported") != null) {
			return;
		}
		List<SchedulerStalls.Stall> stalls = stallsOf(context);
		if (!stalls.isEmpty()) {
			throw new AssertionError(describe(stalls));
		}
	}

	private static List<SchedulerStalls.Stall> stallsOf(ExtensionContext context) {
		Integer from = context.getStore(HERE).get("from", Integer.class);
		return from == null ? List.of() : SchedulerStalls.watch().since(from);
	}

	private static String describe(Collection<SchedulerStalls.Stall> stalls) {
		return "a Reactor timer thread of the test's JVM stalled during this test (every delay, timeout and keep-alive "
				+ "scheduled on it waits behind it):\n"
				+ stalls.stream().map(SchedulerStalls.Stall::toString).collect(Collectors.joining("\n"));
	}
}
