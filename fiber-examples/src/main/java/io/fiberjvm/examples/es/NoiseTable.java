package io.fiberjvm.examples.es;

import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The shared noise table of evolution strategies: a long array of Gaussian noise made from a seed, the
 * same in every process, so a perturbation travels as an index into it rather than as numbers. Each
 * process makes it once per seed.
 */
final class NoiseTable {

	private static final Map<Long, NoiseTable> MADE = new ConcurrentHashMap<>();

	private final double[] noise;

	private NoiseTable(long seed, int size) {
		Random random = new Random(seed);
		noise = new double[size];
		for (int i = 0; i < size; i++) {
			noise[i] = random.nextGaussian();
		}
	}

	/** This process's table for {@code seed}. */
	static NoiseTable of(long seed, int size) {
		return MADE.computeIfAbsent(seed, s -> new NoiseTable(s, size));
	}

	/** {@code dimensions} values from {@code index} on. */
	double[] slice(int index, int dimensions) {
		double[] out = new double[dimensions];
		System.arraycopy(noise, index, out, 0, dimensions);
		return out;
	}
}
