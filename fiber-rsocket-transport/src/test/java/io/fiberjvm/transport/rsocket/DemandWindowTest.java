package io.fiberjvm.transport.rsocket;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A receiver's demand passes as it is up to the window; an unbounded one is held to the window. */
@Timeout(60)
class DemandWindowTest {

	private static final Duration WAIT = Duration.ofSeconds(30);

	/** A source that counts what was asked of it and not yet delivered, and remembers the most it ever was. */
	private static final class Source {

		final List<Long> requests = new CopyOnWriteArrayList<>();
		final AtomicLong outstanding = new AtomicLong();
		final AtomicLong most = new AtomicLong();

		Flux<Integer> of(int count) {
			return Flux.range(0, count)
					.doOnRequest(n -> {
						requests.add(n);
						most.accumulateAndGet(outstanding.addAndGet(n), Math::max);
					})
					.doOnNext(i -> outstanding.decrementAndGet());
		}
	}

	@Test
	void anUnboundedReceiverIsHeldToTheWindow() {
		Source source = new Source();
		StepVerifier.create(DemandWindow.of(source.of(1000), 32)).expectNextCount(1000).expectComplete().verify(WAIT);
		assertThat(source.most.get()).isLessThanOrEqualTo(32);
		assertThat(source.requests).allSatisfy(n -> assertThat(n).isBetween(1L, 32L));
		// Topped up a half window at a time, not once per element.
		assertThat(source.requests.size()).isLessThanOrEqualTo(1000 / 16 + 2);
	}

	@Test
	void anUnboundedReceiverOnAnotherThreadIsHeldToTheWindow() {
		Source source = new Source();
		Flux<Integer> across = DemandWindow.of(source.of(5000).subscribeOn(Schedulers.parallel()), 8)
				.publishOn(Schedulers.boundedElastic(), 3);
		StepVerifier.create(across).expectNextCount(5000).expectComplete().verify(WAIT);
		assertThat(source.most.get()).isLessThanOrEqualTo(8);
	}

	@Test
	void aBoundedReceiversRequestsPassAsTheyAre() {
		Source source = new Source();
		StepVerifier.create(DemandWindow.of(source.of(10), 32), 0)
				.thenRequest(3).expectNext(0, 1, 2)
				.thenRequest(2).expectNext(3, 4)
				.then(() -> assertThat(source.requests).containsExactly(3L, 2L))
				.thenCancel()
				.verify(WAIT);
	}

	@Test
	void demandBeyondTheWindowIsAskedForAsRoomFrees() {
		Source source = new Source();
		StepVerifier.create(DemandWindow.of(source.of(100), 4), 0)
				.thenRequest(10).expectNextCount(10)
				.then(() -> assertThat(source.requests.stream().mapToLong(Long::longValue).sum()).isEqualTo(10))
				.thenRequest(90).expectNextCount(90)
				.expectComplete()
				.verify(WAIT);
		assertThat(source.most.get()).isLessThanOrEqualTo(4);
	}

	@Test
	void errorsAndCancelsPassThrough() {
		StepVerifier.create(DemandWindow.of(Flux.<Integer>error(new IllegalStateException("broken")), 4))
				.expectErrorMessage("broken").verify(WAIT);
		AtomicLong cancelled = new AtomicLong();
		StepVerifier.create(DemandWindow.of(Flux.<Integer>never().doOnCancel(cancelled::incrementAndGet), 4))
				.thenCancel().verify(WAIT);
		assertThat(cancelled.get()).isEqualTo(1);
	}

	@Test
	void aWindowTooSmallIsRefused() {
		assertThatThrownBy(() -> DemandWindow.of(Flux.just(1), 1)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("at least 2");
	}
}
