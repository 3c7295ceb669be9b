package io.fiberjvm.backend;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One state a job passes through.
 *
 * @param phase where the job is
 * @param exitCode the exit code once the job has ended, otherwise {@code null}
 * @param message what the backend says about this state, possibly empty
 */
public record JobStatus(Phase phase, @Nullable Integer exitCode, String message) {

	/** Where a job is in its life. */
	public enum Phase {
		/** Accepted, not yet running (a pod waiting for a node). */
		PENDING,
		/** Its process runs. */
		RUNNING,
		/** Ended with exit code 0. */
		SUCCEEDED,
		/** Ended with another exit code, was killed, or could not start. */
		FAILED;

		/** Whether a job in this phase has ended for good. */
		public boolean isTerminal() {
			return this == SUCCEEDED || this == FAILED;
		}
	}

	public JobStatus {
		Objects.requireNonNull(phase, "phase");
		message = message == null ? "" : message;
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
