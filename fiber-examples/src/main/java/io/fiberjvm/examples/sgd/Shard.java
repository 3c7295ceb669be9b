package io.fiberjvm.examples.sgd;

import java.util.Random;

/**
 * One member's share of a generated linear-regression data set: {@code y = w·x + b + noise}, with
 * {@code x} uniform in [-1, 1]. Every member makes its own rows from its own seed, so no data travels.
 */
final class Shard {

	private final double[][] x;
	private final double[] y;

	private Shard(double[][] x, double[] y) {
		this.x = x;
		this.y = y;
	}

	/** {@code rows} rows for {@code rank}, from {@code truth} (weights, then the bias last). */
	static Shard generate(long seed, int rank, int rows, double[] truth) {
		Random random = new Random(seed * 1_000_003L + rank);
		int features = truth.length - 1;
		double[][] x = new double[rows][features];
		double[] y = new double[rows];
		for (int i = 0; i < rows; i++) {
			double target = truth[features];
			for (int j = 0; j < features; j++) {
				x[i][j] = random.nextDouble() * 2 - 1;
				target += truth[j] * x[i][j];
			}
			y[i] = target + random.nextGaussian() * 0.01;
		}
		return new Shard(x, y);
	}

	/** The gradient of the mean squared error at {@code model} (weights, then bias), over this shard. */
	double[] gradient(double[] model) {
		int features = model.length - 1;
		double[] gradient = new double[model.length];
		for (int i = 0; i < y.length; i++) {
			double error = model[features] - y[i];
			for (int j = 0; j < features; j++) {
				error += model[j] * x[i][j];
			}
			for (int j = 0; j < features; j++) {
				gradient[j] += 2 * error * x[i][j] / y.length;
			}
			gradient[features] += 2 * error / y.length;
		}
		return gradient;
	}

	/** The mean squared error at {@code model} over this shard. */
	double loss(double[] model) {
		int features = model.length - 1;
		double sum = 0;
		for (int i = 0; i < y.length; i++) {
			double error = model[features] - y[i];
			for (int j = 0; j < features; j++) {
				error += model[j] * x[i][j];
			}
			sum += error * error;
		}
		return sum / y.length;
	}
}
