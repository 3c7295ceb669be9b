package io.fiberjvm.manager;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RestartBudgetTest {

	private static final long MS = 1_000_000;

	@Test
	void waitsDoubleFromTheBackoffUpToTheLongest() {
		RestartBudget budget = new RestartBudget(ManagerRestarts.max(10).within(Duration.ofHours(1))
				.backoff(Duration.ofMillis(100)).maxBackoff(Duration.ofMillis(700)).jitter(0), () -> 0.5);
		assertThat(budget.take(0)).isEqualTo(100 * MS);
		assertThat(budget.take(1)).isEqualTo(200 * MS);
		assertThat(budget.take(2)).isEqualTo(400 * MS);
		assertThat(budget.take(3)).isEqualTo(700 * MS);
		assertThat(budget.take(4)).isEqualTo(700 * MS);
	}

	@Test
	void aLongRunOfRestartsNeverOverflowsTheWait() {
		RestartBudget budget = new RestartBudget(ManagerRestarts.max(200).within(Duration.ofHours(1))
				.backoff(Duration.ofSeconds(3)).maxBackoff(Duration.ofDays(365)).jitter(0), () -> 0.5);
		long last = 0;
		for (int i = 0; i < 200; i++) {
			long wait = budget.take(i);
			assertThat(wait).isBetween(last, Duration.ofDays(365).toNanos());
			last = wait;
		}
		assertThat(last).isEqualTo(Duration.ofDays(365).toNanos());
	}

	@Test
	void theLongestWaitAJvmCanTimeIsNeverOverflowedByTheJitter() {
		Duration longest = Duration.ofNanos(Long.MAX_VALUE);
		RestartBudget budget = new RestartBudget(ManagerRestarts.max(100).within(Duration.ofHours(1)).backoff(Duration.ofDays(1))
				.maxBackoff(longest).jitter(1), () -> 0.999);
		for (int i = 0; i < 100; i++) {
			assertThat(budget.take(i)).isPositive().isLessThanOrEqualTo(Long.MAX_VALUE);
		}
	}

	@Test
	void noBackoffRestartsAtOnceEveryTime() {
		RestartBudget budget = new RestartBudget(ManagerRestarts.max(100).within(Duration.ofHours(1)).backoff(Duration.ZERO),
				() -> 0.9);
		for (int i = 0; i < 100; i++) {
			assertThat(budget.take(i)).isZero();
		}
	}

	@Test
	void jitterMovesTheWaitEitherWayWithinTheLongest() {
		ManagerRestarts policy = ManagerRestarts.max(10).within(Duration.ofHours(1)).backoff(Duration.ofMillis(100))
				.maxBackoff(Duration.ofMillis(120)).jitter(0.5);
		assertThat(new RestartBudget(policy, () -> 0).take(0)).isEqualTo(50 * MS);
		assertThat(new RestartBudget(policy, () -> 0.6).take(0)).isCloseTo(110 * MS, within(1L));
		// Never past the longest wait.
		assertThat(new RestartBudget(policy, () -> 0.999).take(0)).isEqualTo(120 * MS);
	}

	@Test
	void restartsAreCountedWithinTheWindowOnly() {
		RestartBudget budget = new RestartBudget(ManagerRestarts.max(2).within(Duration.ofSeconds(10))
				.backoff(Duration.ofMillis(100)).jitter(0), () -> 0.5);
		assertThat(budget.take(0)).isEqualTo(100 * MS);
		assertThat(budget.take(1000 * MS)).isEqualTo(200 * MS);
		assertThat(budget.take(2000 * MS)).as("a third loss within 10 s").isEqualTo(-1);
		assertThat(budget.spent()).isEqualTo("its restart policy allows 2 restarts within PT10S");
		// Once the first restart is 10 s old, there is room for one, whose wait counts the one still in the window.
		assertThat(budget.take(10_000 * MS)).isEqualTo(200 * MS);
		assertThat(budget.take(10_500 * MS)).isEqualTo(-1);
	}

	@Test
	void noRestartsMeansEveryLossIsFinal() {
		assertThat(new RestartBudget(ManagerRestarts.none(), () -> 0.5).take(0)).isEqualTo(-1);
		assertThat(new RestartBudget(ManagerRestarts.max(0), () -> 0.5).take(0)).isEqualTo(-1);
	}

	@Test
	void badPoliciesAreRefusedSayingWhatIsAllowed() {
		assertThatThrownBy(() -> ManagerRestarts.max(-1)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("0 or more");
		assertThatThrownBy(() -> ManagerRestarts.max(3).within(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("window").hasMessageContaining("longer than zero");
		assertThatThrownBy(() -> ManagerRestarts.max(3).backoff(Duration.ofSeconds(-1)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("backoff");
		assertThatThrownBy(() -> ManagerRestarts.max(3).maxBackoff(Duration.ofMillis(10)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shorter than the first");
		assertThatThrownBy(() -> ManagerRestarts.max(3).jitter(1.5)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("between 0 and 1");
		assertThatThrownBy(() -> ManagerRestarts.max(3).jitter(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> ManagerRestarts.max(3).within(Duration.ofSeconds(Long.MAX_VALUE)))
				.isInstanceOf(IllegalArgumentException.class).hasMessageContaining("longer than a JVM can time");
	}

	@Test
	void aLongerFirstBackoffRaisesTheLongestWithIt() {
		ManagerRestarts policy = ManagerRestarts.max(1).backoff(Duration.ofSeconds(30));
		assertThat(policy.maxBackoff()).isEqualTo(Duration.ofSeconds(30));
		assertThat(policy.toString()).contains("max(1)").contains("backoff(PT30S)");
	}
}
