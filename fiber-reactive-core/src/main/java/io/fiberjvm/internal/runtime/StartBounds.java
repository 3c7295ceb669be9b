package io.fiberjvm.internal.runtime;

import java.time.Duration;
import java.util.Objects;

import reactor.core.publisher.Mono;

import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobStatus;

/**
 * How long a job may take to start: first the time it waits for a machine to run on (a pod the scheduler has not
 * placed, while an autoscaler adds a node, say), bounded by {@code pending-timeout}; then, once placed, the time it takes
 * to start and connect back, bounded by {@code start-timeout}.
 *
 * @param pending the bound on the wait for a machine
 * @param start the bound on the start once placed
 */
record StartBounds(Duration pending, Duration start) {

	StartBounds {
		Objects.requireNonNull(pending, "pending");
		Objects.requireNonNull(start, "start");
	}

	/**
	 * Emits why the start of {@code job} failed, if a bound passes before {@code started} signals or the job ends;
	 * completes empty otherwise.
	 *
	 * @param what the job as the message names it: "process 'sim' (job sim-r1-3)"
	 */
	Mono<String> watch(Job job, Mono<?> started, String what) {
		Mono<String> placed = job.statuses().filter(status -> status.phase() != JobStatus.Phase.UNSCHEDULED).next().map(status -> "")
				.timeout(pending, Mono.fromSupplier(() -> what + " was not placed on a machine within " + pending
						+ " (fiber.pending-timeout): " + reason(job.status()) + "; it was deleted"));
		return placed
				.flatMap(failure -> failure.isEmpty()
						? Mono.delay(start).map(tick -> what + " did not connect back within " + start + " (fiber.start-timeout); it was killed")
						: Mono.just(failure))
				.takeUntilOther(started)
				.takeUntilOther(job.onTerminal());
	}

	private static String reason(JobStatus status) {
		return status.message().isBlank() ? "the backend gave no reason" : status.message();
	}
}
