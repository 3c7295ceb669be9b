package io.fiberjvm.examples.rl;

import java.io.Serializable;

/**
 * What one step of an environment returns.
 *
 * @param observation the state after the step
 * @param reward the reward for the step
 * @param done whether the episode ended
 */
public record Step(double[] observation, double reward, boolean done) implements Serializable {
}
