package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.pool.PoolScaling;

/**
 * Sizes an autoscaling pool from its measured load, at each tick: adds workers while a task has waited
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
	private volatile boolean stopped;

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
	synchronized void start() {
		if (!stopped) {
			ticks = Flux.interval(period(policy), Schedulers.boundedElastic()).onBackpressureDrop()
					.subscribe(tick -> tick(System.nanoTime()));
		}
	}

	/** Stops looking, for good: the pool retires its workers, or was terminated. */
	synchronized void stop() {
		stopped = true;
		Disposable running = ticks;
		if (running != null) {
			running.dispose();
		}
	}

	/** One look at {@code now} ({@link System#nanoTime()}'s terms), and what it decides; a failure is logged, not fatal. */
	void tick(long now) {
		try {
			PoolLoad load = dispatcher.load(now);
			int target = fleet.size();
			Decision decision = decide(policy, load, target, fleet.starting());
			if (decision.add() > 0) {
				log.debug("pool {}: a task waited {} ms with {} queued; {} more workers than {}", pool, load.waitNanos() / 1_000_000,
						load.queued(), decision.add(), target);
				if (!fleet.grow(decision.add(), policy.max())) {
					stop();
				}
			}
			else if (!decision.retire().isEmpty()) {
				int retired = fleet.retireIdle(decision.retire(), policy.min());
				log.debug("pool {}: {} workers idle for {}; {} -> {} workers", pool, retired, policy.idleAfter(), target, target - retired);
			}
		}
		catch (RuntimeException unexpected) {
			// The next look may fare better; a pool that stops scaling would strand a pool of none with work queued.
			log.warn("pool {}: autoscaling could not look at the pool: {}", pool, unexpected.toString());
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
	 * taking tasks, under {@code load}: while a task has waited its queue time, as many again as it has
	 * (at least one, no more than wait, within the most), unless some still start; while none waits, the workers idle
	 * for the idle time, as long as more than the fewest take tasks.
	 */
	static Decision decide(PoolScaling policy, PoolLoad load, int target, long starting) {
		if (load.queued() > 0) {
			if (load.waitNanos() < policy.queueTime().toNanos() || target >= policy.max() || starting > 0) {
				return new Decision(0, List.of());
			}
			return new Decision((int) Math.min(policy.max() - target, Math.min(Math.max(1, target), load.queued())), List.of());
		}
		long idleAfter = policy.idleAfter().toNanos();
		// Counted against the fewest: the workers taking tasks, not those still starting (a Pending pod may never come).
		List<String> idle = load.idle().stream().filter(worker -> worker.nanos() >= idleAfter).map(PoolLoad.Idle::worker)
				.limit(Math.max(0, Math.min(target, load.taking()) - policy.min())).toList();
		return new Decision(0, idle);
	}
}
