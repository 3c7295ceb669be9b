package io.fiberjvm.examples.rl;

import java.util.SplittableRandom;

/**
 * The classic cart-pole (Barto, Sutton and Anderson, 1983): a pole hinged on a cart that moves along a
 * track; push the cart left or right to keep the pole up. Euler integration every 20 ms; an episode
 * terminates when the pole tilts more than 12 degrees or the cart leaves the track (2.4 m from the centre),
 * is truncated after 500 steps, and every step until then earns a reward of 1.
 *
 * <p>The physics is gymnasium's {@code CartPole-v1}, operation for operation: started from the same state and
 * given the same actions, the states are the same doubles, step for step (only the random starting state
 * differs, which {@link #reset(double[])} can set).
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
	/** The steps after which an episode is truncated, as gymnasium's {@code TimeLimit} does for v1. */
	private static final int MAX_STEPS = 500;

	private final SplittableRandom random;
	private double x;
	private double xDot;
	private double theta;
	private double thetaDot;
	private int steps;
	private boolean done = true;

	public CartPole() {
		this(0);
	}

	public CartPole(long seed) {
		this.random = new SplittableRandom(seed);
	}

	/** Starts an episode from a small random state; returns the observation. */
	public double[] reset() {
		return reset(new double[] {random.nextDouble(-0.05, 0.05), random.nextDouble(-0.05, 0.05),
				random.nextDouble(-0.05, 0.05), random.nextDouble(-0.05, 0.05)});
	}

	/** Starts an episode from {@code state} (x, x_dot, theta, theta_dot), such as a recorded episode's; returns the observation. */
	public double[] reset(double[] state) {
		if (state.length != 4) {
			throw new IllegalArgumentException("a cart-pole state is x, x_dot, theta and theta_dot, not " + state.length + " numbers");
		}
		x = state[0];
		xDot = state[1];
		theta = state[2];
		thetaDot = state[3];
		steps = 0;
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
		// fdlibm's cosine and sine give the values numpy's do at every state of the recorded episodes; Math.cos, an
		// intrinsic, differed from them by an ulp at one of them.
		double cos = StrictMath.cos(theta);
		double sin = StrictMath.sin(theta);
		// Grouped as gymnasium groups them (np.square first): a double rounds differently otherwise, and the
		// difference of an ulp a step grows until the episodes part.
		double temp = (force + POLE_MOMENT * (thetaDot * thetaDot) * sin) / TOTAL_MASS;
		double thetaAcc = (GRAVITY * sin - cos * temp) / (HALF_POLE * (4.0 / 3.0 - POLE_MASS * (cos * cos) / TOTAL_MASS));
		double xAcc = temp - POLE_MOMENT * thetaAcc * cos / TOTAL_MASS;
		x = x + TAU * xDot;
		xDot = xDot + TAU * xAcc;
		theta = theta + TAU * thetaDot;
		thetaDot = thetaDot + TAU * thetaAcc;
		steps++;
		boolean terminated = x < -MAX_POSITION || x > MAX_POSITION || theta < -MAX_ANGLE || theta > MAX_ANGLE;
		boolean truncated = steps >= MAX_STEPS;
		done = terminated || truncated;
		return new Step(observation(), 1.0, terminated, truncated);
	}

	private double[] observation() {
		return new double[] {x, xDot, theta, thetaDot};
	}
}
