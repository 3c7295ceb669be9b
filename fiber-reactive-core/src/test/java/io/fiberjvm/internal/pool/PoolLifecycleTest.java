package io.fiberjvm.internal.pool;

import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import io.fiberjvm.pool.PoolClosedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A pool's life as a state machine: which calls it takes, when it retires its workers, when it has closed. */
class PoolLifecycleTest {

	private final AtomicInteger retired = new AtomicInteger();
	private final PoolLifecycle lifecycle = new PoolLifecycle("p", retired::incrementAndGet);

	@Test
	void anIdlePoolRetiresItsWorkersAsSoonAsItCloses() {
		lifecycle.callStarted("map");
		lifecycle.callEnded();
		assertThat(lifecycle.state()).isEqualTo(PoolLifecycle.State.OPEN);
		assertThat(lifecycle.replacesWorkers()).isTrue();
		lifecycle.close();
		lifecycle.close();
		assertThat(lifecycle.state()).isEqualTo(PoolLifecycle.State.RETIRING);
		assertThat(retired).as("retired once").hasValue(1);
		assertThat(lifecycle.replacesWorkers()).isFalse();
		assertThat(lifecycle.onClose().toFuture()).as("not while workers are still ending").isNotDone();
		lifecycle.ended();
		assertThat(lifecycle.state()).isEqualTo(PoolLifecycle.State.CLOSED);
		StepVerifier.create(lifecycle.onClose()).verifyComplete();
	}

	@Test
	void aDrainingPoolRunsWhatItAcceptedAndRefusesTheRest() {
		lifecycle.callStarted("map");
		lifecycle.callStarted("apply");
		lifecycle.close();
		assertThat(lifecycle.state()).isEqualTo(PoolLifecycle.State.DRAINING);
		assertThat(lifecycle.replacesWorkers()).as("accepted work still needs workers").isTrue();
		assertThat(lifecycle.isClosing()).isTrue();
		assertThatThrownBy(() -> lifecycle.callStarted("starmap")).isInstanceOf(PoolClosedException.class)
				.hasMessage("pool p is closed; cannot starmap");
		lifecycle.callEnded();
		assertThat(retired).hasValue(0);
		lifecycle.callEnded();
		assertThat(lifecycle.state()).isEqualTo(PoolLifecycle.State.RETIRING);
		assertThat(retired).hasValue(1);
	}

	@Test
	void terminatingStopsAtOnceFromAnyStateButClosed() {
		lifecycle.callStarted("map");
		lifecycle.close();
		assertThat(lifecycle.terminate()).isTrue();
		assertThat(lifecycle.terminate()).as("once").isFalse();
		assertThat(lifecycle.isTerminated()).isTrue();
		assertThat(lifecycle.replacesWorkers()).isFalse();
		assertThatThrownBy(() -> lifecycle.callStarted("map")).isInstanceOf(PoolClosedException.class)
				.hasMessage("pool p is terminated; cannot map");
		lifecycle.callEnded();
		assertThat(retired).as("a terminated pool's workers are stopped, not retired").hasValue(0);
		lifecycle.ended();
		assertThat(lifecycle.state()).isEqualTo(PoolLifecycle.State.TERMINATED);
		StepVerifier.create(lifecycle.onClose()).verifyComplete();

		PoolLifecycle closed = new PoolLifecycle("q", () -> { });
		closed.close();
		closed.ended();
		assertThat(closed.terminate()).as("a closed pool has nothing left to terminate").isFalse();
		assertThatThrownBy(() -> closed.callStarted("map")).as("but says from now on that it was terminated")
				.hasMessage("pool q is terminated; cannot map");

		PoolLifecycle open = new PoolLifecycle("r", retired::incrementAndGet);
		assertThat(open.terminate()).isTrue();
		assertThat(open.state()).isEqualTo(PoolLifecycle.State.TERMINATED);
		open.close();
		assertThat(open.state()).as("closing a terminated pool changes nothing").isEqualTo(PoolLifecycle.State.TERMINATED);
		PoolLifecycle retiring = new PoolLifecycle("s", () -> { });
		retiring.close();
		assertThat(retiring.terminate()).as("a retiring pool's workers are stopped at once").isTrue();
		assertThat(retired).hasValue(0);
	}
}
