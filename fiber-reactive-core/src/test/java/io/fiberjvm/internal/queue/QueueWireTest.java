package io.fiberjvm.internal.queue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.EmptyFrame;
import io.fiberjvm.internal.frames.FrameKind;
import io.fiberjvm.internal.frames.ItemsFrame;
import io.fiberjvm.internal.frames.QueueItem;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.runtime.InProcessRuntime;
import io.fiberjvm.runtime.LoopbackConnection;
import io.fiberjvm.transport.UnknownRouteException;

import static org.assertj.core.api.Assertions.assertThat;

/** What a queue host does with bad input from a peer: clear errors, nothing lost. */
class QueueWireTest {

	private final InProcessRuntime runtime = new InProcessRuntime();
	private final QueueService service = QueueService.of(runtime);

	@Test
	void eachQueueServesItsOwnRoutesAndNamesWhatItDoesNotServe() {
		StepVerifier.create(runtime.router().requestResponse(QueueRoutes.route("q-nope", QueueRoutes.PUT), EmptyFrame.encode()))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class).hasMessageContaining("q-nope"))
				.verify(Duration.ofSeconds(5));
		FiberQueue<Integer> q = service.create(Integer.class, 4);
		StepVerifier.create(runtime.router().requestStream(QueueRoutes.route(q.id(), QueueRoutes.RECEIVE), EmptyFrame.encode()))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class).hasMessageContaining("request-stream"))
				.verify(Duration.ofSeconds(5));
		StepVerifier.create(runtime.router().requestResponse(QueueRoutes.route(q.id(), QueueRoutes.PUT), ItemsFrame.frame(List.of(QueueItem.of(ByteBuffer.wrap(new byte[] {4})))).toArray())
				.then(q.size())).expectNext(1).verifyComplete();
	}

	@Test
	void aProducerSendingMoreThanItWasGrantedIsCutOffAndKeepsNothingBeyondItsGrant() {
		QueueHost host = new QueueHost("q-test", 4);
		Sinks.Many<List<QueueItem>> batches = Sinks.many().unicast().onBackpressureBuffer();
		List<Long> grants = new java.util.concurrent.CopyOnWriteArrayList<>();
		StepVerifier.create(host.send(batches.asFlux(), kept -> { }).doOnNext(grants::add))
				.then(() -> batches.tryEmitNext(java.util.Collections.nCopies(5, QueueItem.of(ByteBuffer.allocate(1)))))
				.expectNextCount(1)
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("room granted for"))
				.verify(Duration.ofSeconds(5));
		assertThat(grants).containsExactly(2L);
		StepVerifier.create(host.size()).expectNext(0).verifyComplete();
	}

	@Test
	void malformedBytesOnTheWireFailThatSessionOnly() {
		FiberQueue<Integer> q = service.create(Integer.class, 4);
		StepVerifier.create(runtime.router().requestChannel(QueueRoutes.route(q.id(), QueueRoutes.SEND),
						Flux.just(new byte[] {FrameKind.ITEMS.code(), 0, 9})))
				.expectNextCount(1)
				.expectError(CodecException.class)
				.verify(Duration.ofSeconds(5));
		// A put is one frame of one item: two items, or two frames, are refused and neither is kept.
		byte[] two = ItemsFrame.frame(List.of(QueueItem.of(ItemsFrameOf.one(1)), QueueItem.of(ItemsFrameOf.one(2)))).toArray();
		byte[] one = ItemsFrame.frame(List.of(QueueItem.of(ItemsFrameOf.one(3)))).toArray();
		for (Flux<byte[]> put : List.of(Flux.just(two), Flux.just(one, one), Flux.<byte[]>empty())) {
			StepVerifier.create(runtime.router().requestChannel(QueueRoutes.route(q.id(), QueueRoutes.PUT), put))
					.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(CodecException.class).hasMessageContaining("one frame of one item"))
					.verify(Duration.ofSeconds(5));
		}
		StepVerifier.create(q.size()).expectNext(0).verifyComplete();
		StepVerifier.create(runtime.router().requestChannel(QueueRoutes.route(q.id(), QueueRoutes.PUT), Flux.just(one)))
				.assertNext(EmptyFrame::check).verifyComplete();
		StepVerifier.create(q.take()).expectNext(3).verifyComplete();
		StepVerifier.create(q.put(7).then(q.take())).expectNext(7).verifyComplete();
	}

	@Test
	void aClosedDrainedQueueIsNoLongerServed() {
		FiberQueue<Integer> q = service.create(Integer.class, 4);
		StepVerifier.create(q.put(1).then(q.closeAsync()).then(q.onClose())).verifyComplete();
		StepVerifier.create(q.take()).expectNext(1).verifyComplete();
		StepVerifier.create(runtime.router().requestResponse(QueueRoutes.route(q.id(), QueueRoutes.SIZE), EmptyFrame.encode()))
				.expectError(UnknownRouteException.class)
				.verify(Duration.ofSeconds(5));
	}

	@Test
	void aHandleElsewhereSeesAQueueClosedAndDrainedAsClosed() {
		FiberQueue<Integer> q = service.create(Integer.class, 4);
		RemoteChannel remote = new RemoteChannel(reactor.core.publisher.Mono.just(new LoopbackConnection(runtime.router())), q.id(),
				runtime.values());
		var waiting = remote.closed().toFuture();
		StepVerifier.create(remote.put(QueueItem.of(ItemsFrameOf.one(5))).then(remote.size())).expectNext(1).verifyComplete();
		StepVerifier.create(q.take().then(remote.close())).verifyComplete();
		assertThat(waiting).as("a close waited for before the queue retired").succeedsWithin(Duration.ofSeconds(5));
		// Closed and drained: the host no longer serves it, which a handle reads as closed.
		StepVerifier.create(remote.closed()).verifyComplete();
		StepVerifier.create(remote.put(QueueItem.of(ItemsFrameOf.one(6)))).expectError(UnknownRouteException.class).verify(Duration.ofSeconds(5));
	}

	/** An item's bytes as the codec writes them. */
	private static final class ItemsFrameOf {
		static ByteBuffer one(int value) {
			return ByteBuffer.wrap(io.fiberjvm.codec.Codec.standard().encode(value));
		}
	}
}
