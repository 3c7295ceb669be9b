package io.fiberjvm.it;

import org.junit.jupiter.api.Test;

import io.fiberjvm.Fiber;
import io.fiberjvm.examples.es.EvolutionStrategies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The ES example as the paper's GECCO demo runs it: forty worker JVMs, and it converges. */
class EvolutionStrategiesTest {

	@Test
	void fortyWorkersConvergeToWithinATenthOfTheOptimum() {
		try (Fiber fiber = Fiber.builder().set("jvm-options", "-XX:+UseSerialGC -Xmx64m -Xss512k -XX:TieredStopAtLevel=1").open()) {
			double[] theta = EvolutionStrategies.optimise(fiber, 40, 50, 100, false);
			for (int i = 0; i < theta.length; i++) {
				assertThat(theta[i]).as("θ[%d]", i).isCloseTo(EvolutionStrategies.OPTIMUM[i], within(0.1));
			}
		}
	}
}
