package io.fiberjvm.examples.es;

/**
 * One antithetic pair to evaluate: the parameters and where the perturbation starts in the noise table.
 *
 * @param theta the current parameters
 * @param noiseIndex the perturbation's first element in the shared noise table
 */
public record Evaluation(double[] theta, int noiseIndex) implements java.io.Serializable {
}
