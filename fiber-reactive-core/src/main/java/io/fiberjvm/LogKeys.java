package io.fiberjvm;

import org.slf4j.MDC;

/**
 * The names under which a job-backed process says who it is in its log lines.
 *
 * <p>In every job-backed JVM, {@link #RUN} and {@link #PROCESS} are system properties for the whole
 * process (a Logback pattern reads them with {@code %property{fiber.process}} on any thread) and SLF4J
 * MDC entries on the thread running its target ({@code %X{fiber.process}}). A pool worker's thread adds
 * {@link #WORKER} and a ring member's thread {@link #RANK} to its MDC.
 */
public final class LogKeys {

	/** The id of the run that started this process (its parent's {@link Fiber#runId()}). */
	public static final String RUN = "fiber.run";
	/** The process's job id: its name, the run and a counter ({@code pi-3-k2x9a-7}). */
	public static final String PROCESS = "fiber.process";
	/** The pool worker's name ({@code pool-w12}), on the thread that runs its tasks. */
	public static final String WORKER = "fiber.worker";
	/** The ring member's rank, on the thread that runs its target. */
	public static final String RANK = "fiber.rank";

	private LogKeys() {
	}

	/** Copies this process's identity (the system properties) into the calling thread's MDC. */
	public static void identifyThread() {
		for (String key : new String[] {RUN, PROCESS}) {
			String value = System.getProperty(key);
			if (value != null) {
				MDC.put(key, value);
			}
		}
	}
}
