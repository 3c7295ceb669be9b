package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.PoolScaling;

/**
 * Sizes an autoscaling pool from its measured load, at each tick: adds workers while the task next to go has waited
 * longer than the policy's queue time and none it added is still starting, and retires workers idle for the policy's
 * idle time while no task waits. {@link PoolScaling} states the contract.
 */
final class PoolAutoscaler {

	private static final Logger log = LoggerFactory.getLogger(PoolAutoscaler.class);

	private final String pool;
	private final PoolScaling policy;
	private final Dispatcher dispatcher;
	private final WorkerFleet fleet;
	private volatile @Nullable Disposable ticks;

	PoolAutoscaler(String pool, PoolScaling policy, Dispatcher dispatcher, WorkerFleet fleet) {
		this.pool = pool;
		this.policy = policy;
		this.dispatcher = dispatcher;
		this.fleet = fleet;
	}

	/** How often it looks: a quarter of the shorter of its two times, within 20 ms and 1 s. */
	static Duration period(PoolScaling policy) {
		Duration shorter = policy.queueTime().compareTo(policy.idleAfter()) < 0 ? policy.queueTime() : policy.idleAfter();
		long millis = Math.max(20, Math.min(1000, shorter.toMillis() / 4));
		return Duration.ofMillis(millis);
	}

	/** Starts looking; starting workers is blocking work, so it looks from a thread that may block. */
	void start() {
		ticks = Flux.interval(period(policy), Schedulers.boundedElastic()).onBackpressureDrop()
				.subscribe(tick -> tick(System.nanoTime()), error -> log.warn("pool {}: autoscaling stopped: {}", pool, error.toString()));
	}

	/** Stops looking: the pool is closing, and keeps the workers it has until its calls end. */
	void stop() {
		Disposable running = ticks;
		if (running != null) {
			running.dispose();
		}
	}

	/** One look at {@code now} ({@link System#nanoTime()}'s terms), and what it decides. */
	void tick(long now) {
		PoolLoad load = dispatcher.load(now);
		int target = fleet.size();
		Decision decision = decide(policy, load, target, fleet.starting());
		try {
			if (decision.add() > 0) {
				log.debug("pool {}: a task waited {} ms with {} queued; {} -> {} workers", pool, load.headWaitNanos() / 1_000_000,
						load.queued(), target, target + decision.add());
				fleet.resize(target + decision.add());
			}
			else if (!decision.retire().isEmpty()) {
				int retired = fleet.retireIdle(decision.retire(), policy.min());
				log.debug("pool {}: {} workers idle for {}; {} -> {} workers", pool, retired, policy.idleAfter(), target, target - retired);
			}
		}
		catch (PoolClosedException closing) {
			// Closing: the pool keeps what it has until its calls end.
			stop();
		}
	}

	/**
	 * What one look decides.
	 *
	 * @param add workers to add
	 * @param retire idle workers to retire, the longest idle first
	 */
	record Decision(int add, List<String> retire) {
	}

	/**
	 * What {@code policy} decides for a pool that wants {@code target} workers, {@code starting} of them not yet
	 * taking tasks, under {@code load}: while the task next to go has waited its queue time, as many again as it has
	 * (at least one, no more than wait, within the most), unless some still start; while none waits, the workers idle
	 * for the idle time, down to the fewest.
	 */
	static Decision decide(PoolScaling policy, PoolLoad load, int target, long starting) {
		if (load.queued() > 0) {
			if (load.headWaitNanos() < policy.queueTime().toNanos() || target >= policy.max() || starting > 0) {
				return new Decision(0, List.of());
			}
			return new Decision((int) Math.min(policy.max() - target, Math.min(Math.max(1, target), load.queued())), List.of());
		}
		long idleAfter = policy.idleAfter().toNanos();
		List<String> idle = load.idle().stream().filter(worker -> worker.nanos() >= idleAfter).map(PoolLoad.Idle::worker)
				.limit(Math.max(0, target - policy.min())).toList();
		return new Decision(0, idle);
	}
}
