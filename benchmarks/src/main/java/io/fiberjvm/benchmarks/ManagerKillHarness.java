package io.fiberjvm.benchmarks;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import io.fiberjvm.Fiber;
import io.fiberjvm.examples.rl.CartPole;
import io.fiberjvm.examples.rl.CartPoleEnv;
import io.fiberjvm.examples.rl.Step;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.manager.ManagerRestartedException;
import io.fiberjvm.manager.ManagerRestarts;

/**
 * An RL loop over CartPole environments, each in its own manager process with a restart policy, stepped in lockstep
 * through async proxies for {@code --seconds} (60): once with no kills, once with one manager SIGKILLed every
 * {@code --kill-every} seconds (10), in turn; {@code --runs} times (2), alternating, in one JVM.
 *
 * <p>A step cut off by its manager's loss fails with {@link ManagerRestartedException}; the loop then resets that
 * environment (the reset waits for the new process) and goes on, as an RL program would. The report gives time steps
 * completed per second with kills over without, the restarts made and the steps lost. Writes
 * {@code manager-kills.md} into {@code --out} and prints it; progress goes to standard error.
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar io.fiberjvm.benchmarks.ManagerKillHarness [--runs 2] [--managers 8] [--seconds 60]
 *     [--kill-every 10] [--out benchmarks/results]
 * </pre>
 */
public final class ManagerKillHarness {

	private static final Duration WAIT = Duration.ofMinutes(2);

	private ManagerKillHarness() {
	}

	/** The command line. */
	record Options(int runs, int managers, int seconds, int killEvery, Path out) {

		static Options parse(String[] args) {
			int[] numbers = {2, 8, 60, 10};
			Path[] out = {Path.of("benchmarks", "results")};
			HarnessArgs.pairs(args, (name, value) -> {
				switch (name) {
					case "--runs" -> numbers[0] = HarnessArgs.positive(name, value);
					case "--managers" -> numbers[1] = HarnessArgs.positive(name, value);
					case "--seconds" -> numbers[2] = HarnessArgs.positive(name, value);
					case "--kill-every" -> numbers[3] = HarnessArgs.positive(name, value);
					case "--out" -> out[0] = Path.of(value);
					default -> throw new IllegalArgumentException("unknown option " + name);
				}
			});
			return new Options(numbers[0], numbers[1], numbers[2], numbers[3], out[0]);
		}
	}

	/** One timed pass: time steps completed (every environment stepped), steps lost to kills, kills, restarts. */
	record Pass(long timeSteps, long lostSteps, int kills, long restarts, double seconds) {

		double timeStepsPerSecond() {
			return timeSteps / seconds;
		}
	}

	public static void main(String[] args) throws Exception {
		Options options = HarnessArgs.parseOrExit(args, Options::parse,
				"usage: ManagerKillHarness [--runs 2] [--managers 8] [--seconds 60] [--kill-every 10] [--out benchmarks/results]");
		Files.createDirectories(options.out());
		List<Pass> calm = new ArrayList<>();
		List<Pass> killed = new ArrayList<>();
		try (Fiber fiber = Fiber.open()) {
			// A short pass first warms every JVM's JIT up, so neither timed pass pays for it alone.
			pass(fiber, options.managers(), 5, 0);
			for (int run = 1; run <= options.runs(); run++) {
				calm.add(progress(run, "no kills", pass(fiber, options.managers(), options.seconds(), 0)));
				killed.add(progress(run, "a kill every " + options.killEvery() + " s",
						pass(fiber, options.managers(), options.seconds(), options.killEvery())));
			}
		}
		String markdown = markdown(options, calm, killed);
		Files.writeString(options.out().resolve("manager-kills.md"), markdown, StandardCharsets.UTF_8);
		PoolOverheadHarness.printReport(markdown);
	}

	private static Pass progress(int run, String what, Pass pass) {
		System.err.printf(Locale.ROOT, "[manager-kills] run %d, %s: %.1f time steps/s, %d kills, %d restarts, %d steps lost%n", run,
				what, pass.timeStepsPerSecond(), pass.kills(), pass.restarts(), pass.lostSteps());
		return pass;
	}

	/** Steps {@code managers} environments in lockstep for {@code seconds}, killing one every {@code killEvery} s (0: never). */
	static Pass pass(Fiber fiber, int managers, int seconds, int killEvery) {
		ManagerRestarts restarts = ManagerRestarts.max(1000).within(Duration.ofMinutes(1));
		List<AsyncManager> started = Flux.range(0, managers)
				.flatMap(i -> AsyncManager.on(fiber).register(CartPoleEnv.class, CartPole.class).name("env-" + i).restarts(restarts).start())
				.collectList().block(WAIT);
		try {
			List<CartPoleEnv> envs = new ArrayList<>();
			List<double[]> observations = new ArrayList<>();
			for (int i = 0; i < started.size(); i++) {
				envs.add(started.get(i).create(CartPoleEnv.class, (long) i));
				observations.add(reset(envs.get(i)).block(WAIT));
			}
			int[] kills = {0};
			Disposable killer = killEvery == 0 ? () -> { }
					: Flux.interval(Duration.ofSeconds(killEvery)).subscribe(tick -> {
						AsyncManager victim = started.get((int) (tick % started.size()));
						victim.process().pid().ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
						kills[0]++;
					});
			long timeSteps = 0;
			long lost = 0;
			long start = System.nanoTime();
			long end = start + Duration.ofSeconds(seconds).toNanos();
			try {
				while (System.nanoTime() < end) {
					List<Integer> actions = observations.stream().map(ManagerKillHarness::policy).toList();
					List<double[]> next = Flux.range(0, envs.size())
							.flatMapSequential(i -> step(envs.get(i), actions.get(i)))
							.collectList().block(WAIT);
					for (int i = 0; i < next.size(); i++) {
						if (next.get(i).length == 0) {
							lost++;
							observations.set(i, reset(envs.get(i)).block(WAIT));
						}
						else {
							observations.set(i, next.get(i));
						}
					}
					timeSteps++;
				}
			}
			finally {
				killer.dispose();
			}
			double elapsed = (System.nanoTime() - start) / 1e9;
			long restarted = started.stream().mapToLong(manager -> manager.stats().restarts()).sum();
			return new Pass(timeSteps, lost, kills[0], restarted, elapsed);
		}
		finally {
			Flux.fromIterable(started).flatMap(AsyncManager::closeAsync).then().block(WAIT);
		}
	}

	/** Push toward the side the pole is falling to, as the AsyncCartPole example does. */
	private static int policy(double[] observation) {
		return observation[2] + 0.5 * observation[3] > 0 ? 1 : 0;
	}

	/**
	 * One step's next observation (a fresh episode's once this one ended), or an empty array when the step was cut
	 * off by its manager's loss: its environment was made again and needs a reset.
	 */
	private static Mono<double[]> step(CartPoleEnv env, int action) {
		return env.step(action)
				.flatMap((Step step) -> step.done() ? reset(env) : Mono.just(step.observation()))
				.onErrorResume(ManagerRestartedException.class, lost -> Mono.just(new double[0]));
	}

	/** A reset, made again should a kill cut it off too. */
	private static Mono<double[]> reset(CartPoleEnv env) {
		return Mono.defer(env::reset).retryWhen(Retry.indefinitely().filter(ManagerRestartedException.class::isInstance));
	}

	private static String markdown(Options options, List<Pass> calm, List<Pass> killed) {
		StringBuilder text = new StringBuilder();
		text.append("# RL stepping while managers are SIGKILLed\n\n");
		text.append(String.format(Locale.ROOT, "%d CartPole environments, each in its own manager with a restart policy, stepped in "
				+ "lockstep through async proxies for %d s; one manager SIGKILLed every %d s in the second pass of each run. "
				+ "A step cut off by a kill fails with ManagerRestartedException and the loop resets that environment.%n%n",
				options.managers(), options.seconds(), options.killEvery()));
		text.append("| run | time steps/s, no kills | time steps/s, kills | kills / restarts | steps lost | kills over no kills |\n");
		text.append("|---|---|---|---|---|---|\n");
		for (int i = 0; i < calm.size(); i++) {
			Pass quiet = calm.get(i);
			Pass hit = killed.get(i);
			text.append(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %d / %d | %d | %.2f× |%n", i + 1, quiet.timeStepsPerSecond(),
					hit.timeStepsPerSecond(), hit.kills(), hit.restarts(), hit.lostSteps(),
					hit.timeStepsPerSecond() / quiet.timeStepsPerSecond()));
		}
		text.append("\n").append(String.format(Locale.ROOT, "java -cp benchmarks/target/benchmarks.jar %s --runs %d --managers %d "
				+ "--seconds %d --kill-every %d%n", ManagerKillHarness.class.getName(), options.runs(), options.managers(),
				options.seconds(), options.killEvery()));
		return text.toString();
	}
}
