package io.fiberjvm;

import org.jspecify.annotations.Nullable;

/**
 * A job-backed process ended with a non-zero exit code, or could not start.
 *
 * <p>When the target threw, the cause is a {@link RemoteException} with the remote type, message and
 * stack trace. The message carries the last lines the process wrote, when it ran.
 */
public final class ProcessFailedException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final String processName;
	private final int exitCode;

	public ProcessFailedException(String processName, int exitCode, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.processName = processName;
		this.exitCode = exitCode;
	}

	/** The name of the process that failed. */
	public String processName() {
		return processName;
	}

	/** Its exit code; -1 when it never ran. */
	public int exitCode() {
		return exitCode;
	}
}
