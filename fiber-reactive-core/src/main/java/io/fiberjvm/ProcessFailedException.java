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
	private final boolean killedForMemory;

	public ProcessFailedException(String processName, int exitCode, String message, @Nullable Throwable cause) {
		this(processName, exitCode, message, cause, false);
	}

	/**
	 * A failure that says whether the process was killed for memory.
	 *
	 * @param killedForMemory whether it was ended for going over its memory limit (see {@link #killedForMemory()})
	 */
	public ProcessFailedException(String processName, int exitCode, String message, @Nullable Throwable cause,
			boolean killedForMemory) {
		super(message, cause);
		this.processName = processName;
		this.exitCode = exitCode;
		this.killedForMemory = killedForMemory;
	}

	/**
	 * Whether the process was ended for going over its memory limit: its pod's container was OOMKilled at the limit,
	 * or, on this machine, its JVM ran out of the heap its declared memory allows. The message gives the limit.
	 */
	public boolean killedForMemory() {
		return killedForMemory;
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
