package io.fiberjvm.manager;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Registrations are checked when made: a wrong interface or implementation is refused naming what is wrong. */
class RegistrationTest {

	/** An async interface with a method that is neither Mono nor Flux. */
	interface Wrong {
		Mono<Integer> fine();

		String notAsync();
	}

	/** An implementation of {@link Wrong}'s names. */
	public static class WrongImpl {
		public int fine() {
			return 1;
		}

		public String notAsync() {
			return "";
		}

		public int items() {
			return 0;
		}
	}

	/** A Flux method whose implementation returns no sequence. */
	interface NotASequence {
		Flux<Integer> items();
	}

	@Test
	void registrationsAreCheckedAtOnce() {
		assertThatThrownBy(() -> Registration.check(Wrong.class, WrongImpl.class))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("method notAsync");
		assertThatThrownBy(() -> Registration.check(NotASequence.class, WrongImpl.class))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Iterable, an array or a Stream");
	}
}
