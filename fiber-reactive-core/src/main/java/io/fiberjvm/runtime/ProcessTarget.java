package io.fiberjvm.runtime;

import java.io.Serializable;

/**
 * What a job-backed process runs: the target travels to the new process, which runs it with its own
 * runtime, joined to the run. A pool's worker, a ring's member and a manager's host are targets; so is a
 * user's {@link io.fiberjvm.FiberRunnable}, wrapped.
 *
 * <p>The process exits with code 0 when {@link #run} returns and 1 when it throws, whose exception reaches
 * the parent. A target travels by Java serialization, read in the child behind its allow-list with the
 * target's own package admitted.
 */
@FunctionalInterface
public interface ProcessTarget extends Serializable {

	/** Runs in the job-backed process, on its main thread, with the runtime it joined the run with. */
	void run(RuntimeContext runtime) throws Exception;
}
