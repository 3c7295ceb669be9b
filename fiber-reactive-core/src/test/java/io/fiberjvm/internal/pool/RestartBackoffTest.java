package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import reactor.test.scheduler.VirtualTimeScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The delay before a start after failed ones: Reactor's backoff, doubling from its least to its most, with jitter. */
class RestartBackoffTest {

	private final RestartBackoff backoff = new RestartBackoff(Duration.ofMillis(200), Duration.ofSeconds(1));

	@Test
	void theDelayDoublesFromItsLeastToItsMostGiveOrTakeHalfAndStaysWithinThem() {
		VirtualTimeScheduler.getOrSet();
		try {
			for (int sample = 0; sample < 20; sample++) {
				assertThat(millisUntil(1)).isBetween(200L, 300L);
				assertThat(millisUntil(2)).isBetween(200L, 600L);
				assertThat(millisUntil(3)).isBetween(400L, 1000L);
				assertThat(millisUntil(40)).as("at its most, jitter only shortens it").isBetween(500L, 1000L);
			}
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}

	@Test
	void delaysAreJitteredSoPoolsFailingTogetherDoNotRestartInLockstep() {
		VirtualTimeScheduler.getOrSet();
		try {
			Set<Long> delays = new HashSet<>();
			for (int sample = 0; sample < 30; sample++) {
				delays.add(millisUntil(3));
			}
			assertThat(delays).hasSizeGreaterThan(5);
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}

	@Test
	void logsStateTheLongestDelay() {
		assertThat(backoff.atMost(1)).isEqualTo(Duration.ofMillis(300));
		assertThat(backoff.atMost(3)).isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void aMostBelowTheLeastIsRefused() {
		assertThatThrownBy(() -> new RestartBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0 <= min <= max");
	}

	/** The whole milliseconds, on virtual time, until the delay after {@code failures} failed starts has passed. */
	private long millisUntil(int failures) {
		VirtualTimeScheduler time = VirtualTimeScheduler.get();
		AtomicBoolean passed = new AtomicBoolean();
		backoff.after(failures, new IllegalStateException("no main class")).subscribe(tick -> passed.set(true));
		long millis = 0;
		while (!passed.get() && millis < 60_000) {
			time.advanceTimeBy(Duration.ofMillis(1));
			millis++;
		}
		assertThat(passed).as("the delay passed within a minute").isTrue();
		return millis;
	}
}
