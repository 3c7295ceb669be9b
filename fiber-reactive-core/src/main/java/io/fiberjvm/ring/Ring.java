package io.fiberjvm.ring;

import java.time.Duration;

import reactor.core.publisher.Mono;

/**
 * A ring of job-backed members that run the same function with ranks and collectives, for data-parallel
 * training and other SPMD programs: {@code fiber.ring(4).cpu(1).initializer(...).run(target)}.
 *
 * <p>Immutable: each option returns a new ring spec. {@link #run(RingTarget)} starts {@link #size()} members
 * (each a job-backed process with the resources set here, and {@code RANK} and {@code WORLD_SIZE} in its
 * environment), lets them find each other through this runtime, runs the initializer and then the target on
 * every member with its {@link RingContext}, and completes when every member has finished. If a member fails
 * (its target throws, its process dies), the ring fails with a {@link RingFailedException} naming its rank,
 * carrying the remote error, and the other members are stopped.
 */
public interface Ring {

	/** Names the members' processes ({@code name-0}, {@code name-1}, ...). */
	Ring name(String name);

	/** Cores per member. */
	Ring cpu(double cpu);

	/** Memory per member ({@code 2Gi}). */
	Ring memory(String memory);

	/** GPUs per member. */
	Ring gpu(int gpu);

	/** Where the members may run on a cluster, laid over the configured placement. */
	Ring placement(io.fiberjvm.Placement placement);

	/** Runs on every member, with its context, before the target. */
	Ring initializer(RingTarget initializer);

	/**
	 * How long a member waits in a collective for a peer's message before it fails, naming the peer and the
	 * collective; zero (the default) waits as long as it takes, as MPI does. A member that dies fails the ring
	 * without it; this catches members that call different collectives, or a peer cut off while its process
	 * lives on.
	 */
	Ring collectiveTimeout(Duration timeout);

	/** How many members the ring has. */
	int size();

	/**
	 * Starts the members when subscribed and completes when all have finished; fails with a
	 * {@link RingFailedException} for the first member that fails, after stopping the others. Cancelling
	 * stops every member. A target or initializer that cannot travel fails at once.
	 */
	Mono<Void> run(RingTarget target);
}
