package io.fiberjvm.examples.sgd;

/**
 * What a member reports after one step: its rank, the step, its model after the update and its shard's loss.
 *
 * @param model the weights, then the bias
 */
public record StepReport(int step, int rank, double[] model, double loss) implements java.io.Serializable {
}
