package io.fiberjvm.internal.ring;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.RemoteException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.ring.Ring;
import io.fiberjvm.ring.RingFailedException;
import io.fiberjvm.ring.RingPeerLostException;
import io.fiberjvm.ring.RingTarget;
import io.fiberjvm.runtime.RuntimeContext;

/** The {@link Ring} of a runtime: an immutable spec whose {@link #run} starts the members and watches them. */
public final class ProcessRing implements Ring {

	private static final SecureRandom IDS = new SecureRandom();
	/** How long a ring whose first failure is a lost peer waits to hear which member died. */
	private static final Duration PEER_DEATH_WAIT = Duration.ofSeconds(10);

	private final RuntimeContext runtime;
	private final int size;
	private final String name;
	private final ResourceSpec resources;
	private final @Nullable RingTarget initializer;
	private final Duration collectiveTimeout;

	private ProcessRing(RuntimeContext runtime, int size, String name, ResourceSpec resources, @Nullable RingTarget initializer,
			Duration collectiveTimeout) {
		this.runtime = runtime;
		this.size = size;
		this.name = name;
		this.resources = resources;
		this.initializer = initializer;
		this.collectiveTimeout = collectiveTimeout;
	}

	/** A ring of {@code size} members started by {@code runtime}. */
	public static Ring of(RuntimeContext runtime, int size) {
		Objects.requireNonNull(runtime, "runtime");
		if (size < 1) {
			throw new IllegalArgumentException("a ring has at least one member, not " + size);
		}
		return new ProcessRing(runtime, size, "ring", ResourceSpec.NONE, null, Duration.ZERO);
	}

	@Override
	public Ring name(String name) {
		Objects.requireNonNull(name, "name");
		if (name.isBlank()) {
			throw new IllegalArgumentException("a ring's name must not be blank");
		}
		return new ProcessRing(runtime, size, name, resources, initializer, collectiveTimeout);
	}

	@Override
	public Ring cpu(double cpu) {
		return new ProcessRing(runtime, size, name, resources.withCpu(cpu), initializer, collectiveTimeout);
	}

	@Override
	public Ring memory(String memory) {
		return new ProcessRing(runtime, size, name, resources.withMemory(memory), initializer, collectiveTimeout);
	}

	@Override
	public Ring gpu(int gpu) {
		return new ProcessRing(runtime, size, name, resources.withGpu(gpu), initializer, collectiveTimeout);
	}

	@Override
	public Ring placement(io.fiberjvm.Placement placement) {
		return new ProcessRing(runtime, size, name, resources.withPlacement(Objects.requireNonNull(placement, "placement")), initializer,
				collectiveTimeout);
	}

	@Override
	public Ring initializer(RingTarget initializer) {
		return new ProcessRing(runtime, size, name, resources, Objects.requireNonNull(initializer, "initializer"), collectiveTimeout);
	}

	@Override
	public Ring collectiveTimeout(Duration timeout) {
		Objects.requireNonNull(timeout, "timeout");
		if (timeout.isNegative()) {
			throw new IllegalArgumentException("a collective timeout cannot be negative: " + timeout);
		}
		return new ProcessRing(runtime, size, name, resources, initializer, timeout);
	}

	@Override
	public int size() {
		return size;
	}

	@Override
	public Mono<Void> run(RingTarget target) {
		Objects.requireNonNull(target, "target");
		return Mono.defer(() -> {
			ShippedValues values = runtime.values();
			byte[] main = values.writeFunction(target, "the ring's target");
			byte[] init = initializer == null ? null : values.writeFunction(initializer, "the ring's initializer");
			List<String> allow = new ArrayList<>(List.of(ShippedValues.packagePattern(target.getClass())));
			if (initializer != null) {
				allow.add(ShippedValues.packagePattern(initializer.getClass()));
			}
			// Read back here, so a capture the members would refuse fails now and not in every member.
			values.readFunction(main, allow, RingTarget.class, "the ring's target");
			if (init != null) {
				values.readFunction(init, allow, RingTarget.class, "the ring's initializer");
			}
			// Not guessable: its routes are the ring's own.
			String ringId = Long.toString(IDS.nextLong() >>> 1, 36);
			String prefix = RingMember.prefix(ringId);
			RingCoordinator coordinator = new RingCoordinator(size);
			Disposable served = runtime.serve(prefix, coordinator.routes(prefix));
			List<FiberProcess> started = new CopyOnWriteArrayList<>();
			Flux<Failure> failures = Flux.range(0, size).flatMap(rank -> runtime
							.start(new RingMember(ringId, rank, size, init, main, allow, collectiveTimeout.toMillis()), name + "-" + rank,
									resources, Map.of("RANK", Integer.toString(rank), "WORLD_SIZE", Integer.toString(size)))
							.doOnNext(started::add)
							.flatMap(member -> member.join().then(Mono.<Failure>empty())
									.onErrorResume(error -> Mono.just(new Failure(rank, member.name(), error))))
							// A member that could not even start fails the ring like one that died.
							.onErrorResume(error -> Mono.just(new Failure(rank, name + "-" + rank, error))),
							// Every member runs at once: they wait for each other.
							size)
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
						coordinator.abandon(new CancellationException("the ring was cancelled"));
						stopAll(started).subscribe(done -> { }, error -> { });
					})
					.doFinally(signal -> served.dispose());
		});
	}

	/** One member's failure. */
	private record Failure(int rank, String process, Throwable error) {

		/** Whether the member failed only because it could not reach a peer. */
		boolean lostPeer() {
			for (Throwable cause = error; cause != null; cause = cause.getCause()) {
				if (cause instanceof RemoteException remote
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
