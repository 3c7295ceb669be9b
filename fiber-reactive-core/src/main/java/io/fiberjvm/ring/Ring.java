package io.fiberjvm.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.JavaSerialization;
import io.fiberjvm.codec.ShippedValues;

/**
 * A ring of job-backed members that run the same function with ranks and collectives, for
 * data-parallel training and other SPMD programs: {@code fiber.ring(4).cpu(1).initializer(...).run(target)}.
 *
 * <p>Immutable: each option returns a new ring spec. {@link #run(RingTarget)} starts {@code size}
 * members (each a job-backed process with the resources set here, and {@code RANK} and
 * {@code WORLD_SIZE} in its environment), lets them find each other through this runtime, runs the
 * initializer and then the target on every member with its {@link RingContext}, and completes when
 * every member has finished. If a member fails (its target throws, its process dies), the ring fails
 * with a {@link RingFailedException} naming its rank, carrying the remote error, and the other
 * members are stopped.
 */
public final class Ring {

	private static final java.security.SecureRandom IDS = new java.security.SecureRandom();

	private final Fiber fiber;
	private final int size;
	private final String name;
	private final ResourceSpec resources;
	private final RingTarget initializer;
	private final java.time.Duration collectiveTimeout;

	private Ring(Fiber fiber, int size, String name, ResourceSpec resources, RingTarget initializer) {
		this(fiber, size, name, resources, initializer, java.time.Duration.ZERO);
	}

	private Ring(Fiber fiber, int size, String name, ResourceSpec resources, RingTarget initializer,
			java.time.Duration collectiveTimeout) {
		this.collectiveTimeout = collectiveTimeout;
		this.fiber = fiber;
		this.size = size;
		this.name = name;
		this.resources = resources;
		this.initializer = initializer;
	}

	/** A ring of {@code size} members started by {@code fiber}; see {@link Fiber#ring(int)}. */
	public static Ring of(Fiber fiber, int size) {
		Objects.requireNonNull(fiber, "fiber");
		if (size < 1) {
			throw new IllegalArgumentException("a ring has at least one member, not " + size);
		}
		return new Ring(fiber, size, "ring", ResourceSpec.NONE, null);
	}

	/** Names the members' processes ({@code name-0}, {@code name-1}, ...). */
	public Ring name(String name) {
		Objects.requireNonNull(name, "name");
		if (name.isBlank()) {
			throw new IllegalArgumentException("a ring's name must not be blank");
		}
		return new Ring(fiber, size, name, resources, initializer, collectiveTimeout);
	}

	/** Cores per member. */
	public Ring cpu(double cpu) {
		return new Ring(fiber, size, name, resources.withCpu(cpu), initializer, collectiveTimeout);
	}

	/** Memory per member ({@code 2Gi}). */
	public Ring memory(String memory) {
		return new Ring(fiber, size, name, resources.withMemory(memory), initializer, collectiveTimeout);
	}

	/** GPUs per member. */
	public Ring gpu(int gpu) {
		return new Ring(fiber, size, name, resources.withGpu(gpu), initializer, collectiveTimeout);
	}

	/** Runs on every member, with its context, before the target. */
	public Ring initializer(RingTarget initializer) {
		return new Ring(fiber, size, name, resources, Objects.requireNonNull(initializer, "initializer"), collectiveTimeout);
	}

	/**
	 * How long a member waits in a collective for a peer's message before it fails, naming the peer and
	 * the collective; zero (the default) waits as long as it takes, as MPI does. A member that dies fails
	 * the ring without it; this catches members that call different collectives, or a peer cut off
	 * while its process lives on.
	 */
	public Ring collectiveTimeout(java.time.Duration timeout) {
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("a collective timeout cannot be negative: " + timeout);
		}
		return new Ring(fiber, size, name, resources, initializer, timeout);
	}

	/** How many members the ring has. */
	public int size() {
		return size;
	}

	/**
	 * Starts the members when subscribed and completes when all have finished; fails with a
	 * {@link RingFailedException} for the first member that fails, after stopping the others.
	 * Cancelling stops every member. A target or initializer that cannot travel fails at once.
	 */
	public Mono<Void> run(RingTarget target) {
		Objects.requireNonNull(target, "target");
		return Mono.defer(() -> {
			ShippedValues values = new ShippedValues(List.of());
			byte[] main = values.writeFunction(target, "the ring's target");
			byte[] init = initializer == null ? null : values.writeFunction(initializer, "the ring's initializer");
			List<String> allow = new ArrayList<>(List.of(JavaSerialization.packagePattern(target.getClass())));
			if (initializer != null) {
				allow.add(JavaSerialization.packagePattern(initializer.getClass()));
			}
			// Read back here, so a capture the members would refuse fails now and not in every member.
			fiber.resolvingHandles(() -> values.readFunction(main, allow, RingTarget.class, "the ring's target"));
			if (init != null) {
				fiber.resolvingHandles(() -> values.readFunction(init, allow, RingTarget.class, "the ring's initializer"));
			}
			// Not guessable: its routes are the ring's own.
			String ringId = Long.toString(IDS.nextLong() >>> 1, 36);
			String prefix = RingMember.prefix(ringId);
			RingCoordinator coordinator = new RingCoordinator(size);
			Disposable served = fiber.serve(prefix, coordinator.router(prefix));
			List<FiberProcess> started = new java.util.concurrent.CopyOnWriteArrayList<>();
			Flux<Failure> failures = fiber.address()
					.flatMapMany(parent -> Flux.range(0, size).flatMap(rank -> fiber
							.process(new RingMember(ringId, rank, size, parent.toString(), init, main, allow, collectiveTimeout.toMillis()))
							.name(name + "-" + rank)
							.resources(resources)
							.environment("RANK", Integer.toString(rank))
							.environment("WORLD_SIZE", Integer.toString(size))
							.start()
							.doOnNext(started::add)
							.flatMap(member -> member.join().then(Mono.<Failure>empty())
									.onErrorResume(error -> Mono.just(new Failure(rank, member.name(), error))))
							// A member that could not even start fails the ring like one that died.
							.onErrorResume(error -> Mono.just(new Failure(rank, name + "-" + rank, error))),
							// Every member runs at once: they wait for each other.
							size))
					.onErrorResume(error -> Mono.just(new Failure(0, "the ring's parent", error)))
					.cache();
			return failures.next()
					// A member that lost a peer fails too, maybe first: wait a little for the one that died.
					.flatMap(first -> first.lostPeer()
							? failures.filter(f -> !f.lostPeer()).next().timeout(PEER_DEATH_WAIT, Mono.just(first))
									.switchIfEmpty(Mono.just(first))
							: Mono.just(first))
					.flatMap(failure -> {
						RingFailedException error = failure.exception(size);
						coordinator.abandon(error);
						return stopAll(started).then(Mono.<Void>error(error));
					})
					.then()
					.doOnCancel(() -> {
						coordinator.abandon(new java.util.concurrent.CancellationException("the ring was cancelled"));
						stopAll(started).subscribe(done -> { }, error -> { });
					})
					.doFinally(signal -> served.dispose());
		});
	}

	/** How long a ring whose first failure is a lost peer waits to hear which member died. */
	private static final java.time.Duration PEER_DEATH_WAIT = java.time.Duration.ofSeconds(10);

	/** One member's failure. */
	private record Failure(int rank, String process, Throwable error) {

		/** Whether the member failed only because it could not reach a peer. */
		boolean lostPeer() {
			for (Throwable cause = error; cause != null; cause = cause.getCause()) {
				if (cause instanceof io.fiberjvm.RemoteException remote
						&& remote.remoteType().equals(RingPeerLostException.class.getName())) {
					return true;
				}
			}
			return false;
		}

		RingFailedException exception(int size) {
			return new RingFailedException(rank, "ring member " + rank + " of " + size + " (" + process + ") failed: "
					+ error.getMessage(), error);
		}
	}

	/** Stops every member still running; completes once they have ended. */
	private static Mono<Void> stopAll(List<FiberProcess> members) {
		return Flux.fromIterable(members).filter(FiberProcess::isAlive)
				.flatMap(member -> member.terminate().onErrorResume(error -> Mono.empty())).then();
	}

	@Override
	public String toString() {
		return "Ring[" + name + ", " + size + " members, " + resources + "]";
	}
}
