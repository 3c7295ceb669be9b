package io.fiberjvm.internal.pool;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fiberjvm.pool.PoolScaling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PoolAutoscalerTest {

	private static final long MS = 1_000_000;
	private static final PoolScaling POLICY = PoolScaling.between(2, 10).queueTime(Duration.ofMillis(500))
			.idleAfter(Duration.ofSeconds(10));

	private static PoolLoad waiting(long queued, long waitedMillis) {
		return new PoolLoad(queued, waitedMillis * MS, List.of(), 10);
	}

	@Test
	void aTaskWaitingPastTheQueueTimeAddsAsManyWorkersAgainWithinTheMost() {
		assertThat(PoolAutoscaler.decide(POLICY, waiting(100, 600), 2, 0).add()).isEqualTo(2);
		assertThat(PoolAutoscaler.decide(POLICY, waiting(100, 600), 4, 0).add()).isEqualTo(4);
		assertThat(PoolAutoscaler.decide(POLICY, waiting(100, 600), 8, 0).add()).as("up to the most").isEqualTo(2);
		assertThat(PoolAutoscaler.decide(POLICY, waiting(100, 600), 10, 0).add()).isZero();
	}

	@Test
	void noMoreWorkersAreAddedThanTasksWait() {
		assertThat(PoolAutoscaler.decide(POLICY, waiting(1, 600), 6, 0).add()).isEqualTo(1);
		// From none at all, one at a time.
		assertThat(PoolAutoscaler.decide(PoolScaling.between(0, 4), waiting(50, 600), 0, 0).add()).isEqualTo(1);
	}

	@Test
	void tasksWaitingLessThanTheQueueTimeOrWorkersStillStartingAddNone() {
		assertThat(PoolAutoscaler.decide(POLICY, waiting(100, 499), 2, 0).add()).isZero();
		// A worker still starting (a pod still Pending) is not counted as started, and no more are asked for.
		assertThat(PoolAutoscaler.decide(POLICY, waiting(100, 5000), 4, 1).add()).isZero();
	}

	@Test
	void onlyWorkersIdleForTheIdleTimeAreRetiredWhileNoTaskWaitsAndNeverBelowTheFewest() {
		PoolLoad idle = new PoolLoad(0, 0, List.of(new PoolLoad.Idle("w1", 30_000 * MS), new PoolLoad.Idle("w2", 12_000 * MS),
				new PoolLoad.Idle("w3", 10_000 * MS), new PoolLoad.Idle("w4", 9_000 * MS)), 6);
		assertThat(PoolAutoscaler.decide(POLICY, idle, 6, 0).retire()).containsExactly("w1", "w2", "w3");
		assertThat(PoolAutoscaler.decide(POLICY, idle, 4, 0).retire()).containsExactly("w1", "w2");
		assertThat(PoolAutoscaler.decide(POLICY, idle, 2, 0).retire()).isEmpty();
		// A task waiting: nobody is retired, however idle.
		PoolLoad busy = new PoolLoad(1, 0, idle.idle(), 6);
		assertThat(PoolAutoscaler.decide(POLICY, busy, 6, 0).retire()).isEmpty();
	}

	@Test
	void workersStillStartingDoNotCountTowardTheFewestSoTheWorkingOnesAreNotAllRetired() {
		// Three wanted, two taking tasks and idle, the third a pod still Pending: one may go, not both.
		PoolLoad load = new PoolLoad(0, 0, List.of(new PoolLoad.Idle("a", 60_000 * MS), new PoolLoad.Idle("b", 60_000 * MS)), 2);
		assertThat(PoolAutoscaler.decide(PoolScaling.between(1, 3).idleAfter(Duration.ofSeconds(1)), load, 3, 1).retire())
				.containsExactly("a");
	}

	@Test
	void theLookComesOftenEnoughForTheShorterTime() {
		assertThat(PoolAutoscaler.period(POLICY)).isEqualTo(Duration.ofMillis(125));
		assertThat(PoolAutoscaler.period(PoolScaling.between(1, 2).queueTime(Duration.ofMillis(10)))).isEqualTo(Duration.ofMillis(20));
		assertThat(PoolAutoscaler.period(PoolScaling.between(1, 2).queueTime(Duration.ofMinutes(1)).idleAfter(Duration.ofMinutes(5))))
				.isEqualTo(Duration.ofSeconds(1));
	}

	@Test
	void badPoliciesAreRefusedSayingWhatIsAllowed() {
		assertThatThrownBy(() -> PoolScaling.between(3, 2)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("min 3, max 2");
		assertThatThrownBy(() -> PoolScaling.between(-1, 2)).isInstanceOf(IllegalArgumentException.class);
		assertThatThrownBy(() -> PoolScaling.between(0, 0)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("max >= 1");
		assertThatThrownBy(() -> POLICY.queueTime(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("queueTime");
		assertThatThrownBy(() -> POLICY.idleAfter(Duration.ofDays(2))).isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining("at most a day");
		assertThatThrownBy(() -> POLICY.idleAfter(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("idleAfter");
	}
}
