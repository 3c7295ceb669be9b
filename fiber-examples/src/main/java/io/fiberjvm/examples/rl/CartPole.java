package io.fiberjvm.examples.rl;

import java.util.SplittableRandom;

/**
 * The classic cart-pole (Barto, Sutton and Anderson, 1983): a pole hinged on a cart that moves along a
 * track; push the cart left or right to keep the pole up. Euler integration every 20 ms; an episode
 * ends when the pole tilts more than 12 degrees or the cart leaves the track (2.4 m from the centre),
 * and every step until then earns a reward of 1.
 */
public class CartPole {

	private static final double GRAVITY = 9.8;
	private static final double CART_MASS = 1.0;
	private static final double POLE_MASS = 0.1;
	private static final double TOTAL_MASS = CART_MASS + POLE_MASS;
	/** Half the pole's length, metres. */
	private static final double HALF_POLE = 0.5;
	private static final double POLE_MOMENT = POLE_MASS * HALF_POLE;
	private static final double FORCE = 10.0;
	private static final double TAU = 0.02;
	private static final double MAX_ANGLE = 12 * 2 * Math.PI / 360;
	private static final double MAX_POSITION = 2.4;

	private final SplittableRandom random;
	private double x;
	private double xDot;
	private double theta;
	private double thetaDot;
	private boolean done = true;

	public CartPole() {
		this(0);
	}

	public CartPole(long seed) {
		this.random = new SplittableRandom(seed);
	}

	/** Starts an episode from a small random state; returns the observation. */
	public double[] reset() {
		x = random.nextDouble(-0.05, 0.05);
		xDot = random.nextDouble(-0.05, 0.05);
		theta = random.nextDouble(-0.05, 0.05);
		thetaDot = random.nextDouble(-0.05, 0.05);
		done = false;
		return observation();
	}

	/** Pushes the cart left (0) or right (1) for one time step. */
	public Step step(int action) {
		if (action != 0 && action != 1) {
			throw new IllegalArgumentException("a cart-pole action is 0 (left) or 1 (right), not " + action);
		}
		if (done) {
			throw new IllegalStateException("the episode is over; reset() before stepping again");
		}
		double force = action == 1 ? FORCE : -FORCE;
		double cos = Math.cos(theta);
		double sin = Math.sin(theta);
		double temp = (force + POLE_MOMENT * thetaDot * thetaDot * sin) / TOTAL_MASS;
		double thetaAcc = (GRAVITY * sin - cos * temp) / (HALF_POLE * (4.0 / 3.0 - POLE_MASS * cos * cos / TOTAL_MASS));
		double xAcc = temp - POLE_MOMENT * thetaAcc * cos / TOTAL_MASS;
		x += TAU * xDot;
		xDot += TAU * xAcc;
		theta += TAU * thetaDot;
		thetaDot += TAU * thetaAcc;
		done = Math.abs(x) > MAX_POSITION || Math.abs(theta) > MAX_ANGLE;
		return new Step(observation(), 1.0, done);
	}

	private double[] observation() {
		return new double[] {x, xDot, theta, thetaDot};
	}
}
