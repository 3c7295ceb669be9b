package io.fiberjvm;

import java.util.OptionalLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A target running in a job-backed process: a child JVM here, a pod on a cluster.
 *
 * <p>Like {@link java.lang.Process}, but reactive. A target that returns ends the process with exit
 * code 0; a target that throws ends it with exit code 1, and {@link #join()} fails with a
 * {@link ProcessFailedException} whose cause is the remote exception with its stack trace. A process
 * whose parent dies, even by SIGKILL, exits by itself within the keep-alive timeout.
 */
public interface FiberProcess {

	/** The name given when it was started, or a generated one. */
	String name();

	/** The backend's id for the job behind this process. */
	String jobId();

	/** The operating-system process id, on the local backend. */
	OptionalLong pid();

	/** The resources it was started with. */
	ResourceSpec resources();

	/** Completes when the process has connected back and its target has started to run. */
	Mono<Void> onRunning();

	/** Emits the exit code when the process ends, whatever the code. */
	Mono<Integer> onExit();

	/**
	 * Completes when the process ends with exit code 0; otherwise fails with a
	 * {@link ProcessFailedException} carrying the remote error, if the target threw one.
	 */
	Mono<Void> join();

	/**
	 * Stops the process (SIGTERM, then SIGKILL after {@code fiber.terminate-grace}, 30 s more for the one child that
	 * writes the class-sharing archive as it exits); completes once it has ended.
	 */
	Mono<Void> terminate();

	/** Whether the process has not ended yet. */
	boolean isAlive();

	/** What the process has written to its standard output and error so far, line by line. */
	Flux<String> logs();
}
