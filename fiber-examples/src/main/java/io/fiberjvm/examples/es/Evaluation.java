package io.fiberjvm.examples.es;

import io.fiberjvm.Shared;

/**
 * One antithetic pair to evaluate: the parameters and where the perturbation starts in the noise table.
 *
 * @param theta the current parameters, shared once per worker JVM
 * @param noiseIndex the perturbation's first element in the shared noise table
 */
public record Evaluation(Shared<double[]> theta, int noiseIndex) implements java.io.Serializable {
}
