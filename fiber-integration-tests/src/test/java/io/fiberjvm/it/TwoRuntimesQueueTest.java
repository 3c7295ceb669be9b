package io.fiberjvm.it;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.queue.QueueClosedException;

import static org.assertj.core.api.Assertions.assertThat;

/** Two runtimes of one run in this JVM: a queue's remote path over real TCP, without child start-up time. */
class TwoRuntimesQueueTest {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private Fiber host;
	private Fiber guest;

	@BeforeEach
	void open() {
		FiberConfig config = FiberConfig.resolve(Map.of("max-frame-size", "1Mi"), new Properties(), Map.of(), null);
		host = Fiber.joinRun(config, "two-runtimes-secret", "host");
		guest = Fiber.joinRun(config, "two-runtimes-secret", "guest");
	}

	@AfterEach
	void close() {
		guest.close();
		host.close();
	}

	/** The queue's handle as it arrives in the guest: written by the host's runtime, read by the guest's. */
	@SuppressWarnings("unchecked")
	private <T> FiberQueue<T> shipToGuest(FiberQueue<T> queue) {
		byte[] bytes = host.runtime().values().write(queue, "the queue");
		return (FiberQueue<T>) guest.runtime().values().read(bytes, "the queue");
	}

	@Test
	void itemsLargerThanHalfAFrameStillReachARemoteConsumerInBatches() {
		FiberQueue<String> queue = host.queue(String.class, 16);
		String big = "x".repeat(200_000);
		StepVerifier.create(queue.send(Flux.range(0, 10).map(i -> i + big))).expectComplete().verify(WAIT);
		FiberQueue<String> remote = shipToGuest(queue);
		assertThat(remote.toString()).contains(queue.id());
		StepVerifier.create(remote.receive().take(10).map(s -> s.length() - big.length()))
				.expectNextCount(10)
				.expectComplete()
				.verify(WAIT);
	}

	/**
	 * A remote producer copies each item as it is sent, into arrays it takes back once their batch has gone: a
	 * producer that fills one array again for each item, and items of two sizes in turn, still arrive as they were.
	 */
	@Test
	void aRemoteProducerReusingItsArrayStillDeliversEachItemAsItWasSent() {
		FiberQueue<byte[]> queue = host.queue(byte[].class, 64);
		FiberQueue<byte[]> remote = shipToGuest(queue);
		int count = 3000;
		byte[][] mine = {new byte[4096], new byte[1500]};
		Flux<byte[]> items = Flux.range(0, count).map(i -> {
			byte[] item = mine[(i / 500) % 2];
			java.util.Arrays.fill(item, i.byteValue());
			return item;
		});
		StepVerifier.create(Mono.zip(remote.send(items).thenReturn(true), queue.receive(16).take(count).collectList()))
				.assertNext(sent -> {
					List<byte[]> received = sent.getT2();
					for (int i = 0; i < count; i++) {
						byte[] item = received.get(i);
						assertThat(item).as("item %d", i).hasSize((i / 500) % 2 == 0 ? 4096 : 1500);
						byte expected = (byte) i;
						assertThat(java.util.stream.IntStream.range(0, item.length).allMatch(at -> item[at] == expected))
								.as("every byte of item %d", i).isTrue();
					}
				})
				.expectComplete()
				.verify(WAIT);
	}

	/**
	 * Arrays of numbers sent from elsewhere are held by the host as the arrays they were read into: a consumer
	 * elsewhere gets their bytes written back from them, and one here that acknowledges items itself gets a copy, so
	 * what it does to an item it leaves unacknowledged does not reach the consumer the item goes to next.
	 */
	@Test
	void arraysHeldAsTheyArrivedReachEveryConsumerAsTheyWereSent() {
		FiberQueue<double[]> queue = host.queue(double[].class, 64);
		FiberQueue<double[]> remote = shipToGuest(queue);
		List<double[]> sent = java.util.stream.IntStream.range(0, 40)
				.mapToObj(i -> java.util.stream.DoubleStream.iterate(i, x -> x + 0.5).limit(1000 + i).toArray()).toList();
		StepVerifier.create(remote.send(Flux.fromIterable(sent))).expectComplete().verify(WAIT);
		StepVerifier.create(remote.receive().take(20).collectList())
				.assertNext(first -> assertThat(first).containsExactlyElementsOf(sent.subList(0, 20)))
				.expectComplete()
				.verify(WAIT);
		StepVerifier.create(queue.receiveManualAck(4).take(1).map(delivery -> {
			java.util.Arrays.fill(delivery.value(), -1);
			return delivery.value().length;
		})).expectNext(1020).expectComplete().verify(WAIT);
		StepVerifier.create(queue.receive().take(20).collectList())
				.assertNext(rest -> assertThat(rest).containsExactlyElementsOf(sent.subList(20, 40)))
				.expectComplete()
				.verify(WAIT);
	}

	/**
	 * A put from elsewhere of any size arrives as it was put: a small one as one request, a large one (from 64 KiB, and
	 * over the 1 MiB frame here) read where it arrives, sent with the request that opens its channel up to 4 MiB and in
	 * parts beyond; a put to a closed queue fails at the caller, whatever its size.
	 */
	@Test
	void putsOfEverySizeFromElsewhereArriveAsTheyWerePut() {
		FiberQueue<double[]> queue = host.queue(double[].class, 8);
		FiberQueue<double[]> remote = shipToGuest(queue);
		List<double[]> put = java.util.stream.IntStream.of(0, 1, 8000, 8192, 300_000, 600_000)
				.mapToObj(n -> java.util.stream.DoubleStream.iterate(n, x -> x - 0.25).limit(n).toArray()).toList();
		StepVerifier.create(Flux.fromIterable(put).concatMap(remote::put)).expectComplete().verify(WAIT);
		StepVerifier.create(queue.receive().take(put.size()).collectList())
				.assertNext(arrived -> assertThat(arrived).containsExactlyElementsOf(put))
				.expectComplete()
				.verify(WAIT);
		StepVerifier.create(queue.put(new double[1]).then(queue.closeAsync())).expectComplete().verify(WAIT);
		for (double[] item : List.of(new double[1], new double[300_000])) {
			StepVerifier.create(remote.put(item)).expectError(QueueClosedException.class).verify(WAIT);
		}
		StepVerifier.create(queue.take()).assertNext(left -> assertThat(left).containsExactly(0.0)).expectComplete().verify(WAIT);
	}

	@Test
	void aRemoteHandleSendsAndReceivesInOrder() {
		FiberQueue<Integer> queue = host.queue(Integer.class, 8);
		FiberQueue<Integer> remote = shipToGuest(queue);
		// Capacity 8: the remote producer can only finish as the local consumer takes.
		StepVerifier.create(Mono.zip(remote.send(Flux.range(0, 100)).thenReturn(true), queue.receive().take(100).collectList()))
				.assertNext(t -> assertThat(t.getT2()).containsExactlyElementsOf(java.util.stream.IntStream.range(0, 100).boxed().toList()))
				.expectComplete()
				.verify(WAIT);
		StepVerifier.create(queue.send(Flux.range(0, 5)).thenMany(remote.receive().take(5))).expectNext(0, 1, 2, 3, 4)
				.expectComplete().verify(WAIT);
	}

	@Test
	void immediateDeliveryHandsRemoteItemsOverOnTheNetworkThreadInOrder() {
		FiberQueue<Integer> queue = host.queue(Integer.class, 8);
		FiberQueue<Integer> remote = shipToGuest(queue);
		java.util.List<String> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
		// Capacity 8: the producer finishes only as the remote consumer takes.
		StepVerifier.create(remote.receive(4, Schedulers.immediate())
						.doOnNext(i -> threads.add(Thread.currentThread().getName())).take(50)
						.mergeWith(queue.send(Flux.range(0, 50)).then(Mono.empty())))
				.expectNextSequence(java.util.stream.IntStream.range(0, 50).boxed().toList())
				.expectComplete()
				.verify(WAIT);
		assertThat(threads).hasSize(50).allSatisfy(name -> assertThat(name).doesNotContain("boundedElastic"));
	}

	@Test
	void blockingOnTheNetworkThreadFailsClearlyAndLosesNothing() {
		FiberQueue<Integer> queue = host.queue(Integer.class, 8);
		FiberQueue<Integer> remote = shipToGuest(queue);
		StepVerifier.create(queue.put(7).thenMany(remote.receive(1, Schedulers.immediate()).doOnNext(i -> Mono.never().block())))
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(IllegalStateException.class).hasMessageContaining("block"))
				.verify(WAIT);
		// The item failed inside onNext after it was handed over, so it counts as taken; the next one is not affected.
		StepVerifier.create(queue.put(8).then(remote.take())).expectNext(8).expectComplete().verify(WAIT);
	}

	@Test
	void aQueueHostedHereStillDeliversImmediateConsumersOffItsLock() {
		FiberQueue<Integer> queue = host.queue(Integer.class, 8);
		StepVerifier.create(queue.put(1).thenMany(queue.receive(1, Schedulers.immediate()).map(i -> Thread.currentThread().getName()).take(1)))
				.assertNext(name -> assertThat(name).contains("boundedElastic"))
				.expectComplete()
				.verify(WAIT);
	}

	@Test
	void queuesCanBeMadeOnANonBlockingThreadOnceTheRuntimeListens() {
		host.queue(String.class);
		StepVerifier.create(Mono.fromCallable(() -> host.queue(String.class)).subscribeOn(Schedulers.parallel()))
				.expectNextCount(1)
				.expectComplete()
				.verify(WAIT);
	}
}
