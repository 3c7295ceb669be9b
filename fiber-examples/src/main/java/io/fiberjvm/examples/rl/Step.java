package io.fiberjvm.examples.rl;

import java.io.Serializable;

/**
 * What one step of an environment returns, as gymnasium's {@code step} does.
 *
 * @param observation the state after the step
 * @param reward the reward for the step
 * @param terminated whether the episode ended in a terminal state (the pole fell, the cart left the track)
 * @param truncated whether the episode was cut off at its step limit
 */
public record Step(double[] observation, double reward, boolean terminated, boolean truncated) implements Serializable {

	/** Whether the episode is over, terminated or truncated: the next step needs a reset first. */
	public boolean done() {
		return terminated || truncated;
	}
}
