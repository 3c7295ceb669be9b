package io.fiberjvm.queue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.transport.UnknownRouteException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a queue host does with bad input from a peer: clear errors, nothing lost. */
class QueueWireTest {

	@Test
	void batchesRoundTripAndMalformedOnesAreNamed() {
		List<byte[]> items = List.of(new byte[] {1}, new byte[0], new byte[] {2, 3});
		assertThat(Batches.decode(Batches.encode(items))).containsExactlyElementsOf(items);
		assertThatThrownBy(() -> Batches.decode(new byte[] {0, 0, 0, 5})).isInstanceOf(CodecException.class)
				.hasMessageContaining("claims 5 items");
		assertThatThrownBy(() -> Batches.decode(new byte[] {0, 0, 0, 1, 0, 0})).isInstanceOf(CodecException.class)
				.hasMessageContaining("cut short");
		assertThatThrownBy(() -> Batches.decode(new byte[] {0, 0, 0, 1, 0, 0, 0, 9, 1})).isInstanceOf(CodecException.class)
				.hasMessageContaining("claims 9 bytes");
		assertThatThrownBy(() -> Batches.decode(new byte[] {0, 0, 0, 0, 7})).isInstanceOf(CodecException.class)
				.hasMessageContaining("after its last item");
		assertThatThrownBy(() -> Batches.decodeLongs(new byte[3], 2)).isInstanceOf(CodecException.class)
				.hasMessageContaining("expected 2 numbers");
	}

	@Test
	void aRouteNamingAnUnknownQueueIsAClearError() {
		QueueService service = new InProcessContext().queues();
		StepVerifier.create(service.router().requestResponse("fiber.queue/q-nope/put", new byte[0]))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(UnknownRouteException.class).hasMessageContaining("q-nope"))
				.verify(Duration.ofSeconds(5));
		FiberQueue<Integer> q = service.create(Integer.class, 4);
		StepVerifier.create(service.router().requestStream("fiber.queue/" + q.id() + "/receive", new byte[0]))
				.expectError(UnknownRouteException.class)
				.verify(Duration.ofSeconds(5));
	}

	@Test
	void aProducerSendingMoreThanItWasGrantedIsCutOffAndKeepsNothingBeyondItsGrant() {
		QueueHost host = new QueueHost("q-test", 4);
		Sinks.Many<List<byte[]>> batches = Sinks.many().unicast().onBackpressureBuffer();
		List<Long> grants = new java.util.concurrent.CopyOnWriteArrayList<>();
		StepVerifier.create(host.send(batches.asFlux()).doOnNext(grants::add))
				.then(() -> batches.tryEmitNext(List.of(new byte[1], new byte[1], new byte[1], new byte[1], new byte[1])))
				.expectNextCount(1)
				.expectErrorSatisfies(e -> assertThat(e).hasMessageContaining("room granted for"))
				.verify(Duration.ofSeconds(5));
		assertThat(grants).containsExactly(2L);
		StepVerifier.create(host.size()).expectNext(0).verifyComplete();
	}

	@Test
	void malformedBytesOnTheWireFailThatSessionOnly() {
		QueueService service = new InProcessContext().queues();
		FiberQueue<Integer> q = service.create(Integer.class, 4);
		StepVerifier.create(service.router().requestChannel("fiber.queue/" + q.id() + "/send", Flux.just(new byte[] {9})))
				.expectNextCount(1)
				.expectError(CodecException.class)
				.verify(Duration.ofSeconds(5));
		StepVerifier.create(q.put(7).then(q.take())).expectNext(7).verifyComplete();
	}
}
