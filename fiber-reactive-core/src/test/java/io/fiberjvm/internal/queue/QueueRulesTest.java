package io.fiberjvm.internal.queue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.runtime.InProcessRuntime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The host's rules under the cases that broke them once: re-entrant producers, late subscriptions, races. */
class QueueRulesTest {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private final QueueService queues = QueueService.of(new InProcessRuntime());

	@Test
	void twoQueuesFeedingEachOtherKeepMoving() {
		FiberQueue<Integer> a = queues.create(Integer.class, 64);
		FiberQueue<Integer> b = queues.create(Integer.class, 64);
		AtomicInteger moved = new AtomicInteger();
		// Each queue's producer is the other's consumer: grants run user code, which must not hold a host's lock.
		Disposable ab = a.send(b.receive(4).doOnNext(x -> moved.incrementAndGet())).subscribe();
		Disposable ba = b.send(a.receive(4).doOnNext(x -> moved.incrementAndGet())).subscribe();
		StepVerifier.create(Flux.range(0, 32).concatMap(a::put)).expectComplete().verify(WAIT);
		await().atMost(WAIT).until(() -> moved.get() > 20_000);
		ab.dispose();
		ba.dispose();
	}

	@Test
	void aPublisherThatSubscribesLateStillGetsItsGrants() {
		FiberQueue<Integer> q = queues.create(Integer.class, 8);
		Publisher<Integer> late = s -> ForkJoinPool.commonPool().execute(() -> Flux.range(0, 5).subscribe(s));
		StepVerifier.create(q.send(late).then(q.size())).expectNext(5).expectComplete().verify(WAIT);
	}

	@Test
	void aSendCompletesOutsideTheHostsLock() throws Exception {
		FiberQueue<Integer> q = queues.create(Integer.class, 8);
		var channel = QueueHandle.class.getDeclaredField("channel");
		channel.setAccessible(true);
		Object host = channel.get(q);
		StepVerifier.create(q.send(Flux.range(0, 3)).then(Mono.fromCallable(() -> Thread.holdsLock(host))))
				.expectNext(false)
				.expectComplete()
				.verify(WAIT);
	}

	@Test
	void afterCloseAcknowledgedItemsAreNotHandedOutAgain() {
		FiberQueue<Integer> q = queues.create(Integer.class, 100);
		StepVerifier.create(q.send(Flux.range(0, 10)).then(q.closeAsync())).expectComplete().verify(WAIT);
		StepVerifier.create(q.receiveManualAck(4)
						.flatMap(d -> Mono.delay(Duration.ofMillis(20)).doOnNext(x -> d.ack()).thenReturn(d.value()))
						.collectList())
				.assertNext(items -> assertThat(items).containsExactlyInAnyOrderElementsOf(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9)))
				.expectComplete()
				.verify(WAIT);
		StepVerifier.create(q.size()).expectNext(0).expectComplete().verify(WAIT);
	}

	@Test
	void cancellingAtAnyMomentNeitherLosesNorDuplicates() {
		for (int round = 0; round < 200; round++) {
			FiberQueue<Integer> q = queues.create(Integer.class, 200);
			StepVerifier.create(q.send(Flux.range(0, 200))).expectComplete().verify(WAIT);
			AtomicInteger seen = new AtomicInteger();
			Disposable consumer = q.receive(64).subscribe(x -> seen.incrementAndGet());
			LockSupport.parkNanos(ThreadLocalRandom.current().nextInt(10_000, 300_000));
			consumer.dispose();
			await().atMost(WAIT).until(() -> seen.get() + q.size().block() == 200);
		}
	}
}
