package io.fiberjvm.internal.runtime;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.ProcessFailedException;

/** How a job-backed process ended, in the words a pool's or a manager's report uses. */
public final class ProcessEndings {

	private ProcessEndings() {
	}

	/**
	 * "it exited with code N", or, for a process killed for memory, "it was killed for memory ... at its limit of L"
	 * as its {@code join()} error says.
	 *
	 * @param error what the process's {@code join()} failed with, or null
	 */
	public static String describe(int exitCode, @Nullable Throwable error) {
		if (error instanceof ProcessFailedException failed && failed.killedForMemory()) {
			String message = String.valueOf(failed.getMessage());
			// After the job id, which has no parentheses: a process's name may hold anything.
			int was = message.indexOf(") was ", Math.max(0, message.lastIndexOf(" (job ")));
			int end = message.indexOf("; its output");
			if (was >= 0 && end > was) {
				return "it was " + message.substring(was + ") was ".length(), end) + " (exit code " + exitCode + ")";
			}
			return "it was killed for memory (exit code " + exitCode + ")";
		}
		return "it exited with code " + exitCode;
	}
}
