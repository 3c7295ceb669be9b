package io.fiberjvm.examples.rl;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.manager.AsyncManager;

/**
 * Reinforcement-learning style stepping over environments hosted in managers, each its own process:
 * the equivalent of the "simplified RL code" in Python Fiber's overview. A fixed policy (push toward
 * the side the pole leans to) steps every environment each time step; with async proxies all
 * environments step at once, with sync calls one after another.
 *
 * <p>Arguments: managers (4), time steps (5000).
 */
public final class AsyncCartPole {

	private static final Duration WAIT = Duration.ofMinutes(5);

	private AsyncCartPole() {
	}

	/** Push toward the side the pole is falling to. */
	static int policy(double[] observation) {
		return observation[2] + 0.5 * observation[3] > 0 ? 1 : 0;
	}

	public static void main(String[] args) {
		int managers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
		int steps = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
		try (Fiber fiber = Fiber.open()) {
			List<AsyncManager> started = Flux.range(0, managers)
					.flatMap(i -> AsyncManager.on(fiber).register(CartPoleEnv.class, CartPole.class).name("cartpole-" + i).start())
					.collectList()
					.block(WAIT);
			List<CartPoleEnv> envs = new ArrayList<>();
			for (int i = 0; i < started.size(); i++) {
				envs.add(started.get(i).create(CartPoleEnv.class, (long) i));
			}
			System.out.printf("%d CartPole environments, each in its own manager process%n", envs.size());
			// Warm both ways up first with a full pass each: the JIT of every JVM involved, so neither mode pays for it alone.
			run(envs, steps, false);
			run(envs, steps, true);
			Result sync = run(envs, steps, false);
			Result async = run(envs, steps, true);
			System.out.printf("sync proxies : %d steps x %d envs in %.2f s, %d episodes ended, total reward %.0f%n",
					steps, envs.size(), sync.seconds, sync.episodes, sync.reward);
			System.out.printf("async proxies: %d steps x %d envs in %.2f s, %d episodes ended, total reward %.0f%n",
					steps, envs.size(), async.seconds, async.episodes, async.reward);
			System.out.printf("async / sync: %.2f%n", async.seconds / sync.seconds);
		}
	}

	/** How a run went. */
	record Result(double seconds, long episodes, double reward) {
	}

	/**
	 * Steps every environment {@code steps} times. Async: each time step is one
	 * {@code Flux.fromIterable(envs).flatMapSequential(env -> env.step(action))}, so all environments
	 * step in parallel; sync: each call is waited for before the next.
	 */
	static Result run(List<CartPoleEnv> envs, int steps, boolean async) {
		List<double[]> observations = new ArrayList<>();
		for (CartPoleEnv env : envs) {
			observations.add(env.reset().block(WAIT));
		}
		long episodes = 0;
		double reward = 0;
		long start = System.nanoTime();
		for (int t = 0; t < steps; t++) {
			List<Step> results;
			if (async) {
				List<Integer> actions = observations.stream().map(AsyncCartPole::policy).toList();
				results = Flux.range(0, envs.size())
						.flatMapSequential(i -> envs.get(i).step(actions.get(i)))
						.collectList()
						.block(WAIT);
			}
			else {
				results = new ArrayList<>();
				for (int i = 0; i < envs.size(); i++) {
					results.add(envs.get(i).step(policy(observations.get(i))).block(WAIT));
				}
			}
			for (int i = 0; i < envs.size(); i++) {
				Step step = results.get(i);
				reward += step.reward();
				if (step.done()) {
					episodes++;
					observations.set(i, envs.get(i).reset().block(WAIT));
				}
				else {
					observations.set(i, step.observation());
				}
			}
		}
		return new Result((System.nanoTime() - start) / 1e9, episodes, reward);
	}
}
