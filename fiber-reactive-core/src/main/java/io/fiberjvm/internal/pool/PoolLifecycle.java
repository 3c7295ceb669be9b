package io.fiberjvm.internal.pool;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.pool.PoolClosedException;

/**
 * Where one pool is in its life, and the calls it has accepted and not finished.
 *
 * <pre>
 * OPEN --close()--&gt; DRAINING --last accepted call ends--&gt; RETIRING --every worker ended--&gt; CLOSED
 *   \                  \                                      \
 *    `----------------- `--------------terminate()------------ `--&gt; TERMINATED &lt;-- terminate() -- CLOSED
 * </pre>
 * Only an open pool accepts calls. A draining pool runs the calls it accepted, replacing lost workers as
 * needed; a retiring one lets its workers finish and stops them, replacing none; a terminated one failed
 * whatever was queued or running. {@link #onClose()} completes once the last worker of a retiring or
 * terminated pool has ended.
 */
final class PoolLifecycle {

	/** A pool's state. */
	enum State {
		/** Takes calls. */
		OPEN,
		/** Takes no new calls; the accepted ones run, on workers replaced as needed. */
		DRAINING,
		/** Every accepted call has ended: workers finish what they hold and stop; none is replaced. */
		RETIRING,
		/** Its workers have all ended after it retired them. */
		CLOSED,
		/** Stopped at once: what was queued or running failed, and its workers are stopped. */
		TERMINATED
	}

	private final String pool;
	private final Runnable retire;
	private final Sinks.Empty<Void> ended = Sinks.empty();
	private State state = State.OPEN;
	private long openCalls;

	/**
	 * @param pool the pool's name, for errors
	 * @param retire what to do, once, when the pool starts retiring its workers
	 */
	PoolLifecycle(String pool, Runnable retire) {
		this.pool = pool;
		this.retire = retire;
	}

	synchronized State state() {
		return state;
	}

	/** Counts a call in. */
	synchronized void callStarted(String what) {
		if (state != State.OPEN) {
			throw new PoolClosedException("pool " + pool + " is " + (state == State.TERMINATED ? "terminated" : "closed")
					+ "; cannot " + what);
		}
		openCalls++;
	}

	/** Counts a call out; a draining pool's last call starts its retirement. */
	void callEnded() {
		boolean last;
		synchronized (this) {
			openCalls--;
			last = state == State.DRAINING && openCalls == 0;
			if (last) {
				state = State.RETIRING;
			}
		}
		if (last) {
			retire.run();
		}
	}

	/** Takes no more calls, and retires the workers once those accepted have ended. Idempotent. */
	void close() {
		boolean idle;
		synchronized (this) {
			if (state != State.OPEN) {
				return;
			}
			idle = openCalls == 0;
			state = idle ? State.RETIRING : State.DRAINING;
		}
		if (idle) {
			retire.run();
		}
	}

	/**
	 * Terminates the pool: true when that stops work or workers now, false when it was terminated already or
	 * had closed (a closed pool only says from now on that it was terminated).
	 */
	synchronized boolean terminate() {
		State was = state;
		state = State.TERMINATED;
		return was != State.TERMINATED && was != State.CLOSED;
	}

	/** Whether lost workers are still replaced: the pool may yet run accepted work. */
	synchronized boolean replacesWorkers() {
		return state == State.OPEN || state == State.DRAINING;
	}

	/** Whether the pool was terminated. */
	synchronized boolean isTerminated() {
		return state == State.TERMINATED;
	}

	/** Whether close or terminate has begun. */
	synchronized boolean isClosing() {
		return state != State.OPEN;
	}

	/** The last worker has ended after the pool retired or terminated them. */
	void ended() {
		synchronized (this) {
			if (state == State.RETIRING) {
				state = State.CLOSED;
			}
		}
		ended.tryEmitEmpty();
	}

	Mono<Void> onClose() {
		return ended.asMono();
	}
}
