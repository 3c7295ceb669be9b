package io.fiberjvm.internal.runtime;

/**
 * What a job-backed process and its parent agree on beyond the services: the routes the parent serves a
 * child for its own target and outcome, and the exit codes a child ends with.
 */
final class ChildProtocol {

	/** Request-response: the child sends an empty frame and gets its target frame. */
	static final String TARGET = "fiber.process.target";

	/** Request-response: the child reports its outcome frame before it exits. */
	static final String OUTCOME = "fiber.process.outcome";

	/** Exit code of a child whose target threw. */
	static final int EXIT_TARGET_FAILED = 1;

	/** Exit code of a child that could not start (bad arguments, no connection). */
	static final int EXIT_CANNOT_START = 2;

	/** Exit code of a child that lost its parent. */
	static final int EXIT_PARENT_LOST = 75;

	private ChildProtocol() {
	}
}
