package io.fiberjvm.internal.pool;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StartLimitTest {

	@Test
	void processesStartAFewAtATimeInTheirOrderAndThoseNoLongerWantedAreHandedBack() {
		StartLimit limit = new StartLimit(2);
		WorkerHost a = new WorkerHost("a");
		WorkerHost b = new WorkerHost("b");
		WorkerHost c = new WorkerHost("c");
		WorkerHost d = new WorkerHost("d");
		assertThat(limit.admit(a)).isTrue();
		assertThat(limit.admit(b)).isTrue();
		assertThat(limit.admit(c)).isFalse();
		assertThat(limit.admit(d)).isFalse();
		StartLimit.Turn turn = limit.ended(host -> host != c);
		assertThat(turn.next()).isSameAs(d);
		assertThat(turn.unwanted()).containsExactly(c);
		// b's start ends with nobody waiting: d alone is starting now, so one more may.
		assertThat(limit.ended(host -> true).next()).isNull();
		assertThat(limit.admit(a)).isTrue();
		assertThat(limit.admit(b)).isFalse();
		assertThat(limit.drain()).containsExactly(b);
		assertThat(limit.drain()).isEmpty();
	}
}
