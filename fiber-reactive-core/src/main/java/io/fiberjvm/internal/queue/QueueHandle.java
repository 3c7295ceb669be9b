package io.fiberjvm.internal.queue;

import java.io.ObjectStreamException;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.ItemsFrame;
import io.fiberjvm.internal.frames.QueueItem;
import io.fiberjvm.queue.Delivery;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.queue.QueueStats;
import io.fiberjvm.runtime.RuntimeContext;

/** A handle on a queue: local when this process hosts it, remote otherwise; it travels as a {@link QueueRef}. */
final class QueueHandle<T> implements FiberQueue<T> {

	private static final long serialVersionUID = 1L;

	/** Items a queue holds unless told otherwise. */
	static final int DEFAULT_CAPACITY = 1024;

	/**
	 * The tag naming the queue (its id) on the sequences its operations return, which are named
	 * {@code fiber.queue.<operation>}: Reactor's metrics ({@code tap(Micrometer.metrics(registry))}) use both.
	 */
	static final String QUEUE_TAG = "queue";

	/** Items per batch on the wire, at most. */
	static final int BATCH_ITEMS = 512;

	/** Items a consumer asks for ahead of what it acknowledged, unless told otherwise. */
	static final int DEFAULT_PREFETCH = 32;

	private final QueueRef ref;
	private final Class<T> type;
	private final transient QueueChannel channel;
	private final transient RuntimeContext runtime;
	/** What an item is called in an error, made once: the codec reads it only when something fails. */
	private final transient String putItem;
	private final transient String readItem;

	QueueHandle(QueueRef ref, Class<T> type, QueueChannel channel, RuntimeContext runtime) {
		this.ref = ref;
		this.type = type;
		this.channel = channel;
		this.runtime = runtime;
		this.putItem = "an item put on queue " + ref.queueId;
		this.readItem = "an item of queue " + ref.queueId;
	}

	@Override
	public String id() {
		return ref.queueId;
	}

	@Override
	public Class<T> type() {
		return type;
	}

	@Override
	public int capacity() {
		return ref.capacity;
	}

	@Override
	public Mono<Void> put(T item) {
		// Written with room for a put's head, so that a large item is its frame without a copy.
		return Mono.fromCallable(() -> QueueItem.of(java.util.Objects.requireNonNull(
						runtime.values().writeAfter(ItemsFrame.PUT_ROOM, checked(item), putItem))))
				.flatMap(channel::put).name("fiber.queue.put").tag(QUEUE_TAG, id());
	}

	@Override
	public Mono<Void> send(Publisher<? extends T> items) {
		int batchBytes = Math.max(1024, Math.min(256 * 1024, runtime.maxFrameSize() / 2));
		return Sender.send(channel, items, this::encode, BATCH_ITEMS, batchBytes).name("fiber.queue.send").tag(QUEUE_TAG, id());
	}

	@Override
	public Mono<T> take() {
		return receive(1).next().name("fiber.queue.take");
	}

	@Override
	public Flux<T> receive() {
		return receive(DEFAULT_PREFETCH);
	}

	@Override
	public Flux<T> receive(int prefetch) {
		return receive(prefetch, Schedulers.boundedElastic());
	}

	@Override
	public Flux<T> receive(int prefetch, Scheduler scheduler) {
		// Acknowledged as it is handed over, an item is never handed out again: its array is the subscriber's to keep.
		return Receiver.receive(channel, prefetch, scheduler, item -> decode(item, true)).name("fiber.queue.receive")
				.tag(QUEUE_TAG, id());
	}

	@Override
	public Flux<Delivery<T>> receiveManualAck(int prefetch) {
		return receiveManualAck(prefetch, Schedulers.boundedElastic());
	}

	@Override
	public Flux<Delivery<T>> receiveManualAck(int prefetch, Scheduler scheduler) {
		// An item not acknowledged goes back to its host: one held here stays as it was for the next consumer.
		boolean keep = !(channel instanceof QueueHost);
		return Receiver.receiveManualAck(channel, prefetch, scheduler, item -> decode(item, keep)).name("fiber.queue.receiveManualAck")
				.tag(QUEUE_TAG, id());
	}

	@Override
	public Mono<Integer> size() {
		return channel.size();
	}

	@Override
	public Optional<QueueStats> localStats() {
		return channel instanceof QueueHost host ? Optional.of(host.stats()) : Optional.empty();
	}

	@Override
	public Mono<Void> closeAsync() {
		return channel.close();
	}

	@Override
	public Mono<Void> onClose() {
		return channel.closed();
	}

	/** The bytes of {@code item}, written into an array from {@code arrays} when it has a compact form and there are some. */
	private ByteBuffer encode(T item, @Nullable IntFunction<byte @Nullable []> arrays) {
		return ByteBuffer.wrap(java.util.Objects.requireNonNull(runtime.values().write(checked(item), putItem, arrays)));
	}

	/** {@code item}, refused unless it is a non-null item of this queue's type. */
	private T checked(T item) {
		if (item == null) {
			throw new IllegalArgumentException("queue " + id() + " does not take null items");
		}
		if (!type.isInstance(item)) {
			throw new IllegalArgumentException("queue " + id() + " holds " + type.getName() + " items, not "
					+ item.getClass().getName());
		}
		return item;
	}

	/**
	 * The value of {@code held}: an array it was read into as it arrived, that array itself when {@code keep}, else a
	 * copy of it; otherwise what its bytes decode to.
	 */
	private T decode(QueueItem held, boolean keep) {
		Object arrived = held.array();
		Object item = arrived == null ? runtime.values().read(held.bytes(), readItem) : keep ? arrived : held.copyOfArray();
		if (!type.isInstance(item)) {
			throw new CodecException("queue " + id() + " holds " + type.getName() + " items, but one read is a "
					+ (item == null ? "null" : item.getClass().getName()));
		}
		return type.cast(item);
	}

	private Object writeReplace() throws ObjectStreamException {
		return ref;
	}

	@Override
	public String toString() {
		return "FiberQueue[" + ref.queueId + " of " + type.getSimpleName() + " at " + ref.host + "]";
	}
}
