package io.fiberjvm.internal.pool;

import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberException;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.internal.pool.WorkerHost.Slot;
import io.fiberjvm.pool.WorkerStartException;

/**
 * A fleet's record of how its worker processes start, since a worker last connected: failed starts, which delay the
 * next and, enough of them in a row, give up; starts killed from outside, which do not; and workers admitted.
 * Guarded by the fleet's lock, but for the count of admissions, which the dispatcher reads without it.
 *
 * <p>A process none of whose workers connected failed to start unless SIGKILL or SIGTERM ended it (exit code 128
 * plus the signal) and no start timeout did first: a JVM that aborts or crashes (SIGABRT, SIGSEGV) as it starts
 * failed to start; an operator, the out-of-memory killer or a preempted pod is an outside hand.
 */
final class WorkerStarts {

	private static final Logger log = LoggerFactory.getLogger(WorkerFleet.class);

	/**
	 * What one process's end said about starting.
	 *
	 * @param failed whether it failed to start
	 * @param killed whether it was killed from outside while starting
	 * @param inARow failed starts, or starts killed, in a row now, as the case is
	 * @param giveUp what the pool's calls fail with, when that many failed starts are too many
	 */
	record Verdict(boolean failed, boolean killed, int inARow, @Nullable WorkerStartException giveUp) {

		static final Verdict NONE = new Verdict(false, false, 0, null);
	}

	private final String pool;
	/** Failed starts in a row after which a pool with no worker fails its calls. */
	private final int limit;
	private final RestartBackoff backoff;
	private int failures;
	private int killed;
	private @Nullable Throwable lastError;
	/** Workers admitted so far. */
	private volatile long admissions;

	WorkerStarts(String pool, int limit, RestartBackoff backoff) {
		this.pool = pool;
		this.limit = limit;
		this.backoff = backoff;
	}

	/** A worker connected: workers can start, and the next replacement needs no delay. */
	void admitted() {
		admissions++;
		failures = 0;
		killed = 0;
		lastError = null;
	}

	/** Workers admitted so far; may be read without the fleet's lock. */
	long admissions() {
		return admissions;
	}

	/** What the next start waits for, or null when it need not wait: no start failed since a worker last connected. */
	@Nullable Mono<Long> nextStartDelay() {
		Throwable last = lastError;
		return failures > 0 && last != null ? backoff.after(failures, last) : null;
	}

	/**
	 * A process none of whose workers connected ended, with {@code exitCode} (-1 when it has none) and {@code error}
	 * (what it said, or null), for {@code why}.
	 */
	Verdict ended(WorkerHost host, int exitCode, @Nullable Throwable error, String why) {
		// Killed from outside (a deleted pod, a SIGKILL) is not the process's failure; killed for memory is: its limit is
		// too small for what it does as it starts, and another start does the same.
		boolean forMemory = error instanceof ProcessFailedException failed && failed.killedForMemory();
		if ((exitCode == 128 + 9 || exitCode == 128 + 15) && !host.startTimedOut() && !forMemory) {
			return new Verdict(false, true, ++killed, null);
		}
		failures++;
		Throwable timedOut = host.startTimedOut() ? host.startError : null;
		Throwable failure = timedOut != null ? timedOut
				: error != null ? error : new FiberException("worker process " + host.name + " ended before it connected: " + why);
		lastError = failure;
		return new Verdict(true, false, failures, failures >= limit ? new WorkerStartException(pool, failures, failure) : null);
	}

	/** Logs the loss of {@code lostHere}, workers of {@code host}, as {@code verdict} judged it. */
	void report(WorkerHost host, List<Slot> lostHere, String why, @Nullable Throwable error, Verdict verdict) {
		String who = host.describe(lostHere);
		if (verdict.failed()) {
			log.warn("pool {}: {} failed to start ({} in a row): {}; next start in at most {}", pool, who, verdict.inARow(),
					error != null ? error.getMessage() : why, backoff.atMost(verdict.inARow()));
		}
		else if (verdict.killed() && verdict.inARow() >= limit) {
			// Killed at every start (a memory limit below the heap, say) is a loop only the logs show: say so loudly.
			log.warn("pool {}: {} was killed while starting ({}), {} in a row since a worker last connected", pool, who, why,
					verdict.inARow());
		}
		else if (verdict.killed()) {
			log.info("pool {}: {} was killed while starting ({}); a replacement starts", pool, who, why);
		}
		else {
			log.info("pool {}: {} was lost: {}", pool, who, why);
		}
	}
}
