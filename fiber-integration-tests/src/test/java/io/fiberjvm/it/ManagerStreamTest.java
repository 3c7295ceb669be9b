package io.fiberjvm.it;

import java.time.Duration;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.manager.ManagerLostException;

import static org.assertj.core.api.Assertions.assertThat;

/** A manager method whose result is a sequence streams it, with the caller's backpressure, over a real manager JVM. */
@Timeout(300)
class ManagerStreamTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(240);

	/** The async face of {@link Source}. */
	public interface Numbers {
		Flux<Integer> upTo(int n);

		Flux<Long> endless();

		Flux<Integer> elsewhere(int n);

		Mono<Long> made();
	}

	/** Makes numbers: a stream of n, or an endless sequence that counts what it made. */
	public static class Source {
		private long made;

		public Stream<Integer> upTo(int n) {
			return IntStream.range(0, n).boxed();
		}

		public Flux<Long> endless() {
			return Flux.generate(sink -> sink.next(made++));
		}

		/** Made on another thread than the one that asks: elements and the end must still arrive in order. */
		public Flux<Integer> elsewhere(int n) {
			return Flux.range(0, n).publishOn(reactor.core.scheduler.Schedulers.parallel());
		}

		public long made() {
			return made;
		}
	}

	private Numbers numbers(String name) {
		return AsyncManager.on(fiber).register(Numbers.class, Source.class).name(name).start().block(LONG).create(Numbers.class);
	}

	@Test
	void tenMillionElementsStreamInOrder() {
		Numbers numbers = numbers("ten-million");
		long[] next = {0};
		StepVerifier.create(numbers.upTo(10_000_000).filter(i -> i != next[0]++).count()).expectNext(0L).verifyComplete();
		assertThat(next[0]).isEqualTo(10_000_000);
	}

	@Test
	void aSequenceMadeOnAnotherThreadArrivesWholeAndInOrder() {
		Numbers numbers = numbers("elsewhere");
		for (int round = 0; round < 5; round++) {
			StepVerifier.create(numbers.elsewhere(100_000).collectList())
					.assertNext(list -> assertThat(list).isEqualTo(IntStream.range(0, 100_000).boxed().toList()))
					.verifyComplete();
		}
	}

	@Test
	void theManagerMakesOnlyWhatTheCallerAskedForAndStopsWhenItCancels() {
		Numbers numbers = numbers("endless");
		StepVerifier.create(numbers.endless(), 0)
				.thenRequest(3)
				.expectNext(0L, 1L, 2L)
				.thenCancel()
				.verify(LONG);
		// An endless sequence: only the caller's demand (a few hundred ahead at most) was ever made.
		long made = numbers.made().block(LONG);
		assertThat(made).isBetween(3L, 256L);
		StepVerifier.create(numbers.upTo(2)).expectNext(0, 1).verifyComplete();
	}

	@Test
	void aStreamWhoseManagerDiesFailsClearly() {
		AsyncManager manager = AsyncManager.on(fiber).register(Numbers.class, Source.class).name("dies").start().block(LONG);
		Numbers numbers = manager.create(Numbers.class);
		StepVerifier.create(numbers.endless(), 0)
				.thenRequest(1)
				.expectNext(0L)
				.then(() -> ProcessHandle.of(manager.process().pid().getAsLong()).ifPresent(ProcessHandle::destroyForcibly))
				// What arrived before the manager died is delivered, then the loss.
				.thenRequest(Long.MAX_VALUE)
				.thenConsumeWhile(element -> true)
				.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(ManagerLostException.class).hasMessageContaining("endless"))
				.verify(LONG);
	}
}
