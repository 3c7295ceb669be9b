package io.fiberjvm.internal.ring;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.LargeDecoding;
import io.fiberjvm.internal.frames.MessageFrame;
import io.fiberjvm.ring.ReduceOp;
import io.fiberjvm.ring.RingContext;
import io.fiberjvm.ring.RingPeerLostException;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Endpoint;
import io.fiberjvm.transport.FrameTooLargeException;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Outbound;

/**
 * One member's side of its ring: the collectives, over messages to peers' ring routes (a small value or a chunk
 * of up to 4 MiB a request-response, anything larger a request-channel's one datum). All-reduce is the
 * bandwidth-optimal ring: the array is cut into {@code size} chunks; in {@code size - 1} reduce-scatter steps each
 * member sends one chunk to its right neighbour and adds the one from its left, so each ends with one chunk fully
 * reduced; {@code size - 1} all-gather steps pass the reduced chunks around. Each member sends
 * {@code 2 (size - 1) / size} of its array.
 */
final class MemberContext implements RingContext {

	/** Values smaller than this go as request-responses; from this size on, they are read where they arrive. */
	private static final int SMALL = ShippedValues.ROOMY;

	/**
	 * Chunks up to this size (what the transport sends as one payload) go as request-responses too: a chunk is copied
	 * once on receipt however it travels, and a request-response is two frames where a channel takes five.
	 */
	private static final int WHOLE_CHUNK = 4 << 20;

	private final int rank;
	private final int size;
	private final String route;
	private final List<Endpoint> roster;
	private final Map<String, String> environment;
	private final RuntimeContext runtime;
	private final Mailbox mailbox;
	private final AtomicInteger sequence = new AtomicInteger();
	private final Duration collectiveTimeout;

	MemberContext(int rank, int size, String route, List<Endpoint> roster, Map<String, String> environment,
			RuntimeContext runtime, Mailbox mailbox, Duration collectiveTimeout) {
		this.collectiveTimeout = collectiveTimeout;
		this.rank = rank;
		this.size = size;
		this.route = route;
		this.roster = roster;
		this.environment = environment;
		this.runtime = runtime;
		this.mailbox = mailbox;
	}

	@Override
	public int rank() {
		return rank;
	}

	@Override
	public int size() {
		return size;
	}

	@Override
	public Endpoint masterAddress() {
		return roster.get(0);
	}

	@Override
	public Map<String, String> environment() {
		return environment;
	}

	@Override
	public Mono<Void> barrier() {
		// An all-reduce completes on a member only once every member has joined it.
		return allReduce(new double[0], ReduceOp.SUM).then();
	}

	@Override
	public Mono<double[]> allReduce(double[] values, ReduceOp op) {
		Objects.requireNonNull(values, "values");
		// Cached: a second subscription (a retry, say) sees the result, and does not run the exchange again.
		return allReduce((long) values.length * Double.BYTES, () -> new ReduceBuffer.Doubles(values.clone()), op)
				.map(buffer -> buffer.values).cache();
	}

	@Override
	public Mono<float[]> allReduce(float[] values, ReduceOp op) {
		Objects.requireNonNull(values, "values");
		return allReduce((long) values.length * Float.BYTES, () -> new ReduceBuffer.Floats(values.clone()), op)
				.map(buffer -> buffer.values).cache();
	}

	/**
	 * An all-reduce of the copy {@code copy} makes now of an array of {@code bytes}; one over max-value-size is
	 * refused, as the returned Mono's error.
	 */
	private <B extends ReduceBuffer> Mono<B> allReduce(long bytes, Supplier<B> copy, ReduceOp op) {
		Objects.requireNonNull(op, "op");
		// Numbered when called, as every collective is, refused or not.
		int seq = sequence.getAndIncrement();
		try {
			runtime.values().checkSize(bytes, "the all-reduce array of rank " + rank);
		}
		catch (CodecException tooLarge) {
			return Mono.error(tooLarge);
		}
		B buffer = copy.get();
		return allReduce(seq, buffer, op).thenReturn(buffer);
	}

	private Mono<Void> allReduce(int seq, ReduceBuffer buffer, ReduceOp op) {
		if (size == 1) {
			return Mono.empty();
		}
		// The array's length must agree, or chunks would not line up: the first step's message says so.
		Mono<Void> reduceScatter = Flux.range(0, size - 1)
				.concatMap(step -> step(seq, step, buffer, chunkIndex(rank - step), chunkIndex(rank - step - 1), buffer::add))
				.then();
		Mono<Void> allGather = Flux.range(0, size - 1)
				.concatMap(step -> step(seq, size - 1 + step, buffer, chunkIndex(rank + 1 - step), chunkIndex(rank - step),
						buffer::set))
				.then();
		return reduceScatter.then(allGather).then(Mono.fromRunnable(() -> {
			if (op == ReduceOp.MEAN) {
				buffer.divide(size);
			}
		}));
	}

	/**
	 * One step: chunk {@code sendChunk} goes to the right neighbour while chunk {@code receiveChunk} comes from the
	 * left and is {@code combine}d into the buffer. A large chunk is made into an array and combined on a worker
	 * thread, not on the connection's thread its message arrived on.
	 */
	private Mono<Void> step(int seq, int wireStep, ReduceBuffer buffer, int sendChunk, int receiveChunk,
			BiConsumer<Integer, ByteBuffer> combine) {
		int length = buffer.length();
		int from = start(sendChunk, length);
		int to = start(sendChunk + 1, length);
		Mono<Void> send = Mono.defer(() -> sendChunk(right(), seq, wireStep, buffer, from, to));
		if (MessageFrame.ROOM + (long) (to - from) * buffer.elementBytes() > Outbound.WRITTEN_LIMIT) {
			send = send.subscribeOn(Schedulers.boundedElastic());
		}
		Mono<MessageFrame> message = take(seq, wireStep, left(), "all-reduce");
		if ((long) (start(receiveChunk + 1, length) - start(receiveChunk, length)) * buffer.elementBytes() >= LargeDecoding.LARGE) {
			message = message.publishOn(Schedulers.boundedElastic());
		}
		Mono<Void> receive = message
				.doOnNext(m -> combine.accept(start(receiveChunk, length), checked(m, receiveChunk, length, buffer, left())))
				.then();
		return Mono.when(send, receive);
	}

	/** A message from {@code from}, waited for at most the ring's collective timeout, if it has one. */
	private Mono<MessageFrame> take(int seq, int step, int from, String collective) {
		Mono<MessageFrame> message = mailbox.take(seq, step, from);
		if (collectiveTimeout.isZero()) {
			return message;
		}
		return message.timeout(collectiveTimeout, Mono.error(() -> new IllegalStateException("rank " + rank + " waited "
				+ collectiveTimeout.toMillis() + " ms for rank " + from + " in collective #" + seq + " (" + collective + ", step "
				+ step + "): is rank " + from + " alive, and does every member call the same collectives in the same order?")));
	}

	/** A chunk whose size is not what this member's array length makes it: the members' arrays differ in length. */
	private ByteBuffer checked(MessageFrame message, int chunk, int length, ReduceBuffer buffer, int from) {
		ByteBuffer bytes = message.chunk();
		int expected = (start(chunk + 1, length) - start(chunk, length)) * buffer.elementBytes();
		if (bytes.remaining() != expected) {
			throw new IllegalArgumentException("all-reduce: rank " + from + " sent " + bytes.remaining() + " bytes for chunk " + chunk
					+ " where rank " + rank + "'s array of " + length + " makes " + expected
					+ "; every member must pass an array of the same length and type");
		}
		return bytes;
	}

	private int chunkIndex(int i) {
		return Math.floorMod(i, size);
	}

	/** Where chunk {@code chunk} starts in an array of {@code length}: chunks differ in size by at most one. */
	private int start(int chunk, int length) {
		return (int) ((long) chunk * length / size);
	}

	@Override
	public <T> Mono<T> broadcast(T value) {
		int seq = sequence.getAndIncrement();
		if (rank == 0) {
			return Mono.defer(() -> {
				byte[] frame = MessageFrame.value(seq, 0, rank,
						runtime.values().writeAfter(MessageFrame.ROOM, value, "the broadcast value"));
				return Flux.range(1, size - 1).flatMap(peer -> send(peer, frame)).then(Mono.justOrEmpty(value));
			}).cache();
		}
		// A null broadcast is an empty Mono everywhere, as on rank 0.
		return take(seq, 0, 0, "broadcast").flatMap(message -> this.<T>value(message, "the broadcast value from rank 0")).cache();
	}

	@Override
	public <T> Mono<List<T>> gather(T value) {
		int seq = sequence.getAndIncrement();
		if (rank != 0) {
			return Mono.defer(() -> send(0, MessageFrame.value(seq, 0, rank,
					runtime.values().writeAfter(MessageFrame.ROOM, value, "the gathered value of rank " + rank))))
					.thenReturn(List.<T>of())
					.cache();
		}
		return Flux.range(1, size - 1)
				.concatMap(peer -> take(seq, 0, peer, "gather")
						.flatMap(message -> this.<T>value(message, "the gathered value of rank " + peer).map(Optional::of)
								.defaultIfEmpty(Optional.empty())))
				.collectList()
				.map(others -> {
					List<T> all = new ArrayList<>(size);
					all.add(value);
					others.forEach(o -> all.add(o.orElse(null)));
					return Collections.unmodifiableList(all);
				})
				.cache();
	}

	/** The value {@code message} carries, empty for null: read already, or decoded off a connection's thread when large. */
	@SuppressWarnings("unchecked")
	private <T> Mono<T> value(MessageFrame message, String what) {
		if (message.decoded() != null) {
			return Mono.just((T) message.decoded());
		}
		return LargeDecoding.mono(message.bytes(), () -> (T) message.value(runtime.values(), what));
	}

	/** Sends elements {@code from} to {@code to} of {@code buffer}, written straight into the frame. */
	private Mono<Void> sendChunk(int peer, int seq, int step, ReduceBuffer buffer, int from, int to) {
		int bytes = (to - from) * buffer.elementBytes();
		Outbound chunk = MessageFrame.chunk(seq, step, rank, bytes, out -> buffer.encode(from, to, out));
		return send(peer, chunk, chunk.size() <= WHOLE_CHUNK);
	}

	/** A failure to reach a peer at all, as opposed to an error it answered with or one made here. */
	private static boolean peerUnreachable(Throwable error) {
		return !(error instanceof CodecException) && !(error instanceof RemoteException)
				&& !(error instanceof IllegalArgumentException) && !(error instanceof FrameTooLargeException)
				// A datum that writes other than its size is this side's fault; a cancelled exchange is the peer gone.
				&& (!(error instanceof IllegalStateException) || error instanceof CancellationException);
	}

	/** Sends a value's frame: a small one as a request-response, a larger one to be read where it arrives. */
	private Mono<Void> send(int peer, byte[] frame) {
		return send(peer, Outbound.of(frame), frame.length < SMALL);
	}

	/**
	 * Sends {@code message} to {@code peer}: {@code whole}, as a request-response (two frames), else as the one datum
	 * of a request-channel, which the transport sends with the request that opens it, or in parts as the peer takes
	 * them, and the peer reads where it arrives.
	 */
	private Mono<Void> send(int peer, Outbound message, boolean whole) {
		return runtime.connectionTo(roster.get(peer))
				.flatMap(connection -> whole
						? connection.requestResponse(route, message.toArray()).then()
						: connection.requestChannel(route, message, Flux.empty(), InboundReader.bytes()).then())
				.onErrorMap(MemberContext::peerUnreachable, error -> new RingPeerLostException(peer, error));
	}

	@Override
	public String toString() {
		return "RingContext[rank " + rank + " of " + size + ", rank 0 at " + roster.get(0) + "]";
	}
}
