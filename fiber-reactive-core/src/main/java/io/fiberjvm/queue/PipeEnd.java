package io.fiberjvm.queue;

import java.io.Serializable;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * One end of a {@link FiberPipe}; it can be shipped to another process like a queue handle.
 *
 * <p>What one end sends, the other end receives, with the guarantees of {@link FiberQueue}. The ends of
 * a one-way pipe only receive ({@link FiberPipe#left()}) or only send ({@link FiberPipe#right()}); the
 * other operations fail with {@link UnsupportedOperationException}.
 *
 * @param <T> the type of items
 */
public interface PipeEnd<T> extends Serializable {

	/** Sends one item to the other end. */
	Mono<Void> put(T item);

	/** Sends every item of {@code items}, in order. */
	Mono<Void> send(Publisher<? extends T> items);

	/** Takes one item sent by the other end. */
	Mono<T> take();

	/** Items sent by the other end, as the subscriber asks for them. */
	Flux<T> receive();

	/** Whether this end can send. */
	boolean canSend();

	/** Whether this end can receive. */
	boolean canReceive();
}
