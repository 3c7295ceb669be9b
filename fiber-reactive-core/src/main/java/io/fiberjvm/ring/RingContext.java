package io.fiberjvm.ring;

import java.util.List;
import java.util.Map;

import reactor.core.publisher.Mono;

import io.fiberjvm.transport.Endpoint;

/**
 * A ring member's view of its ring: its rank among {@link #size()} members, its neighbours, where rank 0
 * listens, and collectives over the run's transport.
 *
 * <p>Collectives are like MPI's: every member calls the same collectives in the same order, and each
 * completes once the members it depends on have called it too. They return {@code Mono}s that do the
 * work when subscribed; a target runs on a thread of its own, so {@code block()} is fine there. Values
 * travel as copies. A member that dies fails the ring and stops the others, so a collective waiting on
 * it never hangs for long.
 */
public interface RingContext {

	/** This member's rank, 0 to {@code size() - 1}. */
	int rank();

	/** How many members the ring has. */
	int size();

	/** The rank before this one, around the ring. */
	default int left() {
		return (rank() + size() - 1) % size();
	}

	/** The rank after this one, around the ring. */
	default int right() {
		return (rank() + 1) % size();
	}

	/** Where rank 0 listens for its ring. */
	Endpoint masterAddress();

	/**
	 * {@code MASTER_ADDR} and {@code MASTER_PORT} (rank 0's address, and a port rank 0 found free for
	 * a framework's own rendezvous), {@code RANK} and {@code WORLD_SIZE}, for a framework that
	 * rendezvous that way, started by a member as a subprocess. {@code RANK} and {@code WORLD_SIZE} are
	 * in each member's own environment too; a JVM cannot change its environment once started, so the
	 * others are here, and in system properties of the same names.
	 */
	Map<String, String> environment();

	/** Completes once every member has called it. */
	Mono<Void> barrier();

	/** Rank 0's {@code value} on every member (empty if it is null); the argument is ignored on the others. */
	<T> Mono<T> broadcast(T value);

	/**
	 * The element-wise {@code op} of every member's {@code values}, which must all have the same length;
	 * by a ring reduce-scatter and all-gather, so each member sends about twice its array whatever the
	 * ring's size. The argument is not changed.
	 */
	Mono<double[]> allReduce(double[] values, ReduceOp op);

	/** As {@link #allReduce(double[], ReduceOp)}, for {@code float}s. */
	Mono<float[]> allReduce(float[] values, ReduceOp op);

	/** Every member's {@code value} in rank order on rank 0; an empty list on the others. */
	<T> Mono<List<T>> gather(T value);
}
