package io.fiberjvm.it;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.fiberjvm.Fiber;
import io.fiberjvm.examples.es.EvolutionStrategies;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.PoolStats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

/** The ES example as the paper's GECCO demo runs it: forty worker JVMs, and it converges. */
class EvolutionStrategiesTest {

	@Test
	void fortyWorkersConvergeToWithinATenthOfTheOptimum() {
		try (Fiber fiber = Fiber.builder().set("jvm-options", EvolutionStrategies.SMALL_WORKER_FLAGS).open()) {
			FiberPool pool = EvolutionStrategies.pool(fiber, 40, 1);
			// All forty take part: wait for them, and give each evaluation a millisecond so tasks spread over them.
			await().atMost(Duration.ofMinutes(5)).until(() -> pool.stats().workers() == 40);
			double[] theta = EvolutionStrategies.optimise(fiber, pool, new double[3], 50, 100, Duration.ofMillis(1), new Random(11), false);
			for (int i = 0; i < theta.length; i++) {
				assertThat(theta[i]).as("θ[%d]", i).isCloseTo(EvolutionStrategies.OPTIMUM[i], within(0.1));
			}
			PoolStats stats = pool.stats();
			assertThat(stats.completed()).isEqualTo(50 * 100);
			assertThat(stats.failed() + stats.lost() + stats.workersLost()).isZero();
			assertThat(pool.workers()).hasSize(40);
			pool.close();
			pool.onClose().block(Duration.ofMinutes(1));
		}
	}
}
