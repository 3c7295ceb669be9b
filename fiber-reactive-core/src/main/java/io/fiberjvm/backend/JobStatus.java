package io.fiberjvm.backend;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One state a job passes through.
 *
 * @param phase where the job is
 * @param exitCode the exit code once the job has ended, otherwise {@code null}
 * @param message what the backend says about this state, possibly empty
 * @param killedForMemory whether the job was ended for going over its memory limit: a container the kernel killed at
 *        its cgroup's limit (Kubernetes' OOMKilled), or a JVM that ran out of the heap its declared memory allows
 */
public record JobStatus(Phase phase, @Nullable Integer exitCode, String message, boolean killedForMemory) {

	/** Where a job is in its life. */
	public enum Phase {
		/** Accepted, waiting for a machine to run on: a pod the scheduler has not placed on a node. */
		UNSCHEDULED,
		/** Placed, not yet running (a pod whose containers are being created). */
		PENDING,
		/** Its process runs. */
		RUNNING,
		/** Ended with exit code 0. */
		SUCCEEDED,
		/** Ended with another exit code, was killed, or could not start. */
		FAILED;

		/** Whether a job in this phase has not started running yet, nor ended. */
		public boolean isWaiting() {
			return this == UNSCHEDULED || this == PENDING;
		}

		/** Whether a job in this phase has ended for good. */
		public boolean isTerminal() {
			return this == SUCCEEDED || this == FAILED;
		}
	}

	public JobStatus {
		Objects.requireNonNull(phase, "phase");
		message = message == null ? "" : message;
	}

	/** A status of a job not killed for memory. */
	public JobStatus(Phase phase, @Nullable Integer exitCode, String message) {
		this(phase, exitCode, message, false);
	}

	/** The status of a job ended with {@code code} for going over its memory limit; {@code message} says which. */
	public static JobStatus killedForMemory(int code, String message) {
		return new JobStatus(Phase.FAILED, code, message, true);
	}

	/** Whether the job has ended. */
	public boolean isTerminal() {
		return phase.isTerminal();
	}

	/** The status of a job that ended with {@code code}. */
	public static JobStatus exited(int code, String message) {
		return new JobStatus(code == 0 ? Phase.SUCCEEDED : Phase.FAILED, code, message);
	}
}
