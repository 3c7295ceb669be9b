package io.fiberjvm.testing;

import java.util.List;

/**
 * Fails a test during which BlockHound saw a blocking call on a non-blocking thread ({@link BlockingCalls}), naming
 * each with its stack, unless the test claimed it. Found through
 * {@code junit.jupiter.extensions.autodetection.enabled} by the suites with this test-jar.
 */
public final class BlockingCallsReported extends FindingsReported<BlockingCalls.Call> {

	@Override
	int mark() {
		return BlockingCalls.mark();
	}

	@Override
	List<BlockingCalls.Call> since(int mark) {
		return BlockingCalls.since(mark);
	}

	@Override
	String heading() {
		return "blocking calls on non-blocking threads during this test";
	}
}
