package io.fiberjvm.internal.queue;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.queue.PipeEnd;

/** A pipe end over queues: it receives from one and sends to the other. */
final class QueuePipeEnd<T> implements PipeEnd<T> {

	private static final long serialVersionUID = 1L;

	private final @Nullable FiberQueue<T> incoming;
	private final @Nullable FiberQueue<T> outgoing;

	QueuePipeEnd(@Nullable FiberQueue<T> incoming, @Nullable FiberQueue<T> outgoing) {
		this.incoming = incoming;
		this.outgoing = outgoing;
	}

	private FiberQueue<T> out() {
		if (outgoing == null) {
			throw new UnsupportedOperationException("this end of a one-way pipe only receives");
		}
		return outgoing;
	}

	private FiberQueue<T> in() {
		if (incoming == null) {
			throw new UnsupportedOperationException("this end of a one-way pipe only sends");
		}
		return incoming;
	}

	@Override
	public Mono<Void> put(T item) {
		return Mono.defer(() -> out().put(item));
	}

	@Override
	public Mono<Void> send(Publisher<? extends T> items) {
		return Mono.defer(() -> out().send(items));
	}

	@Override
	public Mono<T> take() {
		return Mono.defer(() -> in().take());
	}

	@Override
	public Flux<T> receive() {
		return Flux.defer(() -> in().receive());
	}

	@Override
	public boolean canSend() {
		return outgoing != null;
	}

	@Override
	public boolean canReceive() {
		return incoming != null;
	}
}
