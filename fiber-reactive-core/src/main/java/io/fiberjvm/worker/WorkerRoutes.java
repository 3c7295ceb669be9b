package io.fiberjvm.worker;

/** The routes a parent serves for its job-backed processes. */
public final class WorkerRoutes {

	/** Request-response: the child asks for its {@link ShippedTarget}. */
	public static final String TARGET = "fiber.process.target";

	/** Request-response: the child reports its {@link Outcome} before it exits. */
	public static final String OUTCOME = "fiber.process.outcome";

	/** The environment variable that carries the run's secret to a child. */
	public static final String SECRET_ENV = "FIBER_RUN_SECRET";

	/** Exit code of a child whose target threw. */
	public static final int EXIT_TARGET_FAILED = 1;

	/** Exit code of a child that could not start (bad arguments, no connection). */
	public static final int EXIT_CANNOT_START = 2;

	/** Exit code of a child that lost its parent. */
	public static final int EXIT_PARENT_LOST = 75;

	private WorkerRoutes() {
	}
}
