package io.fiberjvm.testing;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * Fails a test during which BlockHound saw a blocking call on a non-blocking thread ({@link BlockingCalls}), naming
 * each with its stack; a test that failed on its own says so in its message too. Found through
 * {@code junit.jupiter.extensions.autodetection.enabled} by the suites with this test-jar.
 */
public final class BlockingCallsReported implements BeforeEachCallback, AfterEachCallback, TestExecutionExceptionHandler {

	private static final ExtensionContext.Namespace HERE = ExtensionContext.Namespace.create(BlockingCallsReported.class);

	@Override
	public void beforeEach(ExtensionContext context) {
		context.getStore(HERE).put("from", BlockingCalls.mark());
	}

	@Override
	public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
		List<BlockingCalls.Call> calls = callsOf(context);
		if (calls.isEmpty()) {
			throw failure;
		}
		context.getStore(HERE).put("reported", true);
		throw new AssertionError(failure + "\n" + describe(calls), failure);
	}

	@Override
	public void afterEach(ExtensionContext context) {
		if (context.getStore(HERE).get("reported") != null) {
			return;
		}
		List<BlockingCalls.Call> calls = callsOf(context);
		if (!calls.isEmpty()) {
			throw new AssertionError(describe(calls));
		}
	}

	private static List<BlockingCalls.Call> callsOf(ExtensionContext context) {
		Integer from = context.getStore(HERE).get("from", Integer.class);
		return from == null ? List.of() : BlockingCalls.since(from);
	}

	private static String describe(List<BlockingCalls.Call> calls) {
		return "blocking calls on non-blocking threads during this test:\n"
				+ calls.stream().map(BlockingCalls.Call::toString).collect(Collectors.joining("\n"));
	}
}
