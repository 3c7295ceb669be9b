package io.fiberjvm.internal.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import io.fiberjvm.queue.Delivery;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.queue.QueueClosedException;
import io.fiberjvm.runtime.InProcessRuntime;
import io.fiberjvm.transport.MeteredSubscriber;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A queue used in the process that hosts it: the host's rules without a network. */
class LocalQueueTest {

	/** Less than the stall a consumer is allowed. */
	private static final Duration HOLDING = Duration.ofMillis(150);

	private final QueueService queues = QueueService.of(new InProcessRuntime());

	@BeforeAll
	static void timeouts() {
		StepVerifier.setDefaultTimeout(Duration.ofSeconds(30));
	}

	@Test
	void putThenTake() {
		FiberQueue<String> q = queues.create(String.class, 4);
		StepVerifier.create(q.put("a").then(q.put("b")).then(q.take())).expectNext("a").verifyComplete();
		StepVerifier.create(q.take()).expectNext("b").verifyComplete();
	}

	@Test
	void sendThenReceiveInOrder() {
		FiberQueue<Integer> q = queues.create(Integer.class, 8);
		StepVerifier.create(q.send(Flux.range(0, 5)).thenMany(q.receive().take(5))).expectNext(0, 1, 2, 3, 4).verifyComplete();
	}

	@Test
	void sendLargerThanCapacityCompletesAsAConsumerTakes() {
		FiberQueue<Integer> q = queues.create(Integer.class, 8);
		StepVerifier.create(q.send(Flux.range(0, 1000)).then(q.size()).zipWith(q.receive().take(1000).collectList()))
				.assertNext(t -> assertThat(t.getT2()).containsExactlyElementsOf(IntStream.range(0, 1000).boxed().toList()))
				.verifyComplete();
	}

	@Test
	void aProducerWaitsAtCapacityAndNeverMore() {
		FiberQueue<Integer> q = queues.create(Integer.class, 10);
		var sent = q.send(Flux.range(0, 100)).toFuture();
		await().until(() -> q.size().block() == 10);
		assertThat(sent).isNotDone();
		MeteredSubscriber<Integer> slow = new MeteredSubscriber<>(3);
		q.receive(3).subscribe(slow);
		slow.awaitAllRequested(Duration.ofSeconds(10));
		// The three taken free room, which the producer fills again: the queue is back at 10, never above.
		await().until(() -> q.size().block() == 10);
		assertThat(sent).isNotDone();
		slow.ask(97);
		slow.awaitAllRequested(Duration.ofSeconds(10));
		await().until(sent::isDone);
		slow.dispose();
	}

	@Test
	void cancelledConsumerReturnsWhatItDidNotAcknowledge() {
		FiberQueue<Integer> q = queues.create(Integer.class, 100);
		StepVerifier.create(q.send(Flux.range(0, 10))).verifyComplete();
		// take(3) acknowledges three; its prefetch credited more, which must come back.
		StepVerifier.create(q.receive(8).take(3)).expectNext(0, 1, 2).verifyComplete();
		await().until(() -> q.size().block() == 7);
		StepVerifier.create(q.receive().take(7).collectList())
				.assertNext(items -> assertThat(items).containsExactlyInAnyOrder(3, 4, 5, 6, 7, 8, 9))
				.verifyComplete();
	}

	@Test
	void closeDrainsThenCompletesAndRefusesPuts() {
		FiberQueue<Integer> q = queues.create(Integer.class, 100);
		StepVerifier.create(q.send(Flux.range(0, 3)).then(q.closeAsync()).thenMany(q.receive())).expectNext(0, 1, 2).verifyComplete();
		StepVerifier.create(q.put(1)).expectError(QueueClosedException.class).verify();
		StepVerifier.create(q.send(Flux.just(1))).expectError(QueueClosedException.class).verify();
	}

	@Test
	void consumersShareRoundRobin() {
		FiberQueue<Integer> q = queues.create(Integer.class, 100);
		var a = q.receive(2).take(50).collectList().toFuture();
		var b = q.receive(2).take(50).collectList().toFuture();
		StepVerifier.create(q.send(Flux.range(0, 100))).verifyComplete();
		await().until(() -> a.isDone() && b.isDone());
		List<Integer> all = new java.util.ArrayList<>(a.join());
		all.addAll(b.join());
		assertThat(all).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 100).boxed().toList());
	}

	@Test
	void aConsumerGetsAtMost16ItemsMoreThanOneStillTakingItemsAndIsNotHeldBackByOneThatStalled() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		try {
			FiberQueue<Integer> q = queues.create(Integer.class, 1000);
			StepVerifier.create(q.send(Flux.range(0, 100))).verifyComplete();
			List<Delivery<Integer>> slow = new java.util.concurrent.CopyOnWriteArrayList<>();
			Disposable slowConsumer = q.receiveManualAck(4, Schedulers.immediate()).subscribe(slow::add);
			await().until(() -> slow.size() == 4);
			List<Integer> fast = new java.util.concurrent.CopyOnWriteArrayList<>();
			Disposable fastConsumer = q.receive(8, Schedulers.immediate()).subscribe(fast::add);
			// It joins level with the slow one, and goes 16 ahead of it while that one holds its items.
			await().until(() -> fast.size() == 16);
			time.advanceTimeBy(HOLDING);
			assertThat(fast).as("16 ahead of one that holds its items, and acknowledged within 200 ms").hasSize(16);
			assertThat(q.size().block()).isEqualTo(80);

			// Its acknowledgements let it take more, and the fast one as many again.
			slow.forEach(Delivery::ack);
			await().until(() -> slow.size() == 8);
			await().until(() -> fast.size() == 20);
			time.advanceTimeBy(HOLDING);
			assertThat(fast).hasSize(20);

			// Holding its items 200 ms without acknowledging one, it no longer holds the other back.
			time.advanceTimeBy(FairShares.STALL.minus(HOLDING));
			await().until(() -> fast.size() == 92);
			assertThat(fast).doesNotHaveDuplicates();
			slowConsumer.dispose();
			fastConsumer.dispose();
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}

	@Test
	void manualAckBoundsWhatIsOpenAndReturnsWhatWasNotAcknowledged() {
		FiberQueue<Integer> q = queues.create(Integer.class, 100);
		StepVerifier.create(q.send(Flux.range(0, 10))).verifyComplete();
		List<Delivery<Integer>> open = new java.util.concurrent.CopyOnWriteArrayList<>();
		var subscription = q.receiveManualAck(4).subscribe(open::add);
		await().until(() -> open.size() == 4);
		assertThat(q.size().block()).isEqualTo(6);
		// Acknowledged out of order: 1 and 2 count only once 0 does; meanwhile nothing more arrives.
		open.get(1).ack();
		open.get(2).ack();
		assertThat(open).hasSize(4);
		open.get(0).ack();
		await().until(() -> open.size() == 7);
		subscription.dispose();
		// Items 3..6 were handed out and not acknowledged: they are back, and 0..2 are gone for good.
		StepVerifier.create(q.receive().take(7).collectList())
				.assertNext(items -> assertThat(items).containsExactlyInAnyOrder(3, 4, 5, 6, 7, 8, 9))
				.verifyComplete();
		assertThat(open.stream().map(Delivery::value).toList()).containsExactly(0, 1, 2, 3, 4, 5, 6);
	}

	@Test
	void aConsumerHoldsAtMost64MiBOfLargeItemsBeyondItsFirst() throws InterruptedException {
		int size = 40 << 20;
		FiberQueue<byte[]> q = queues.create(byte[].class, 8);
		StepVerifier.create(q.send(Flux.range(0, 3).map(i -> new byte[size]))).verifyComplete();
		java.util.concurrent.CountDownLatch working = new java.util.concurrent.CountDownLatch(1);
		java.util.concurrent.CountDownLatch finish = new java.util.concurrent.CountDownLatch(1);
		List<Integer> sizes = new java.util.concurrent.CopyOnWriteArrayList<>();
		// Its first onNext does not return (so acknowledges nothing) until told.
		var subscription = q.receive(8).subscribe(item -> {
			sizes.add(item.length);
			working.countDown();
			try {
				finish.await(30, java.util.concurrent.TimeUnit.SECONDS);
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
		});
		assertThat(working.await(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
		// The first item went whatever its size, the second while less than 64 MiB was out; the third waits.
		await().until(() -> q.localStats().orElseThrow().unacknowledged() == 2);
		assertThat(q.localStats().orElseThrow().depth()).isEqualTo(1);
		finish.countDown();
		await().until(() -> sizes.size() == 3 && q.localStats().orElseThrow().unacknowledged() == 0);
		assertThat(sizes).containsOnly(size);
		subscription.dispose();
	}

	@Test
	void aManualAckConsumerGetsLargeItemsUpToItsPrefetch() {
		int size = 40 << 20;
		FiberQueue<byte[]> q = queues.create(byte[].class, 8);
		StepVerifier.create(q.send(Flux.range(0, 3).map(i -> new byte[size]))).verifyComplete();
		// It waits for all three before acknowledging any: its prefetch, not a size, bounds what it holds.
		StepVerifier.create(q.receiveManualAck(8).buffer(3).next())
				.assertNext(batch -> {
					assertThat(batch).hasSize(3);
					batch.forEach(Delivery::ack);
				})
				.verifyComplete();
	}

	@Test
	void manualAckAfterAsynchronousWork() {
		FiberQueue<Integer> q = queues.create(Integer.class, 100);
		StepVerifier.create(q.send(Flux.range(0, 50))).verifyComplete();
		StepVerifier.create(q.receiveManualAck(8)
						.flatMap(d -> reactor.core.publisher.Mono.delay(Duration.ofMillis(d.value() % 3)).thenReturn(d), 8)
						.doOnNext(Delivery::ack)
						.take(50)
						.count())
				.expectNext(50L)
				.verifyComplete();
		await().until(() -> q.size().block() == 0);
		StepVerifier.create(q.put(99).then(q.take())).expectNext(99).verifyComplete();
	}

	@Test
	void anItemTheConsumerCannotReadFailsItsReceiveAndStaysInTheQueue() {
		FiberQueue<String> words = queues.create(String.class, 10);
		StepVerifier.create(words.put("not a number")).verifyComplete();
		// A handle that reads the same queue as Integer, as a mismatched peer would.
		@SuppressWarnings("unchecked")
		FiberQueue<Integer> numbers = (FiberQueue<Integer>) queues.handle(
				new QueueRef("127.0.0.1:9", words.id(), Integer.class.getName(), 10));
		StepVerifier.create(numbers.take())
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(io.fiberjvm.codec.CodecException.class)
						.hasMessageContaining(words.id()).hasMessageContaining("java.lang.Integer"))
				.verify();
		await().until(() -> words.size().block() == 1);
		StepVerifier.create(words.take()).expectNext("not a number").verifyComplete();
	}

	@Test
	void aQueueWhoseRuntimeClosedFailsWhatWaitsAndEveryLaterOperationAtOnce() {
		FiberQueue<Integer> q = queues.create(Integer.class, 1);
		StepVerifier.create(q.put(1)).verifyComplete();
		FiberQueue<Integer> empty = queues.create(Integer.class, 1);
		// A put waiting for room, and a consumer waiting for an item, when the runtime closes.
		CompletableFuture<Void> waitingPut = q.put(2).toFuture();
		CompletableFuture<Integer> waitingConsumer = empty.receive().next().toFuture();
		await().atMost(Duration.ofSeconds(10)).until(() -> q.localStats().orElseThrow().blockedPuts() == 1);
		queues.dispose();
		for (CompletableFuture<?> waiting : List.of(waitingPut, waitingConsumer)) {
			assertThat(waiting).failsWithin(Duration.ofSeconds(10)).withThrowableOfType(ExecutionException.class)
					.satisfies(error -> closedWithItsRuntime(error.getCause()));
		}
		StepVerifier.create(q.put(4)).expectErrorSatisfies(LocalQueueTest::closedWithItsRuntime).verify(Duration.ofSeconds(1));
		StepVerifier.create(q.take()).expectErrorSatisfies(LocalQueueTest::closedWithItsRuntime).verify(Duration.ofSeconds(1));
		StepVerifier.create(q.receive()).expectErrorSatisfies(LocalQueueTest::closedWithItsRuntime).verify(Duration.ofSeconds(1));
		StepVerifier.create(q.send(Flux.range(0, 3))).expectErrorSatisfies(LocalQueueTest::closedWithItsRuntime)
				.verify(Duration.ofSeconds(1));
		StepVerifier.create(q.size()).expectErrorSatisfies(LocalQueueTest::closedWithItsRuntime).verify(Duration.ofSeconds(1));
		StepVerifier.create(q.onClose()).verifyComplete();
	}

	@Test
	void aQueueMadeAsItsRuntimeClosesIsEndedToo() {
		queues.dispose();
		FiberQueue<Integer> q = queues.create(Integer.class, 4);
		StepVerifier.create(q.put(1)).expectErrorSatisfies(LocalQueueTest::closedWithItsRuntime).verify(Duration.ofSeconds(1));
	}

	private static void closedWithItsRuntime(Throwable error) {
		assertThat(error).isInstanceOf(QueueClosedException.class).hasMessageContaining("is closed: the Fiber hosting it (").hasMessageContaining("run test) is closed");
	}
}
