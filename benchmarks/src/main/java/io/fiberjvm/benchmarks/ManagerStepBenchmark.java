package io.fiberjvm.benchmarks;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.rsocket.Payload;
import io.rsocket.RSocket;
import io.rsocket.util.DefaultPayload;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import reactor.core.publisher.Flux;

import io.fiberjvm.Fiber;
import io.fiberjvm.examples.rl.CartPole;
import io.fiberjvm.examples.rl.CartPoleEnv;
import io.fiberjvm.examples.rl.Step;
import io.fiberjvm.manager.AsyncManager;

/**
 * CartPole environments in four manager processes: one remote {@code step} (p50, p99) against plain
 * RSocket request-response to another JVM in the same run, and one time step of all four
 * environments through sync calls (one after another) against async proxies (all at once); and one remote
 * {@code step} of an environment whose calls have a deadline, which the manager watches on the object's thread.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
@State(Scope.Benchmark)
public class ManagerStepBenchmark {

	private static final Duration WAIT = Duration.ofSeconds(30);

	private Fiber fiber;
	private final List<CartPoleEnv> envs = new ArrayList<>();
	private final List<double[]> observations = new ArrayList<>();
	/** An environment beside the first, in the same manager, whose calls have a deadline. */
	private CartPoleEnv deadlined;
	private double[] deadlinedObservation;
	private EchoServer plain;
	private RSocket rsocket;
	private final byte[] message = new byte[64];

	@Setup(Level.Trial)
	public void start() throws IOException {
		fiber = Fiber.open();
		List<AsyncManager> managers = Flux.range(0, 4)
				.flatMap(i -> AsyncManager.on(fiber).register(CartPoleEnv.class, CartPole.class).name("bench-" + i).start())
				.collectList().block(WAIT);
		for (int i = 0; i < managers.size(); i++) {
			CartPoleEnv env = managers.get(i).create(CartPoleEnv.class, (long) i);
			envs.add(env);
			observations.add(env.reset().block(WAIT));
		}
		deadlined = managers.get(0).callTimeout(Duration.ofSeconds(10)).create(CartPoleEnv.class, 99L);
		deadlinedObservation = deadlined.reset().block(WAIT);
		plain = new EchoServer("unused-" + System.nanoTime());
		rsocket = plain.plainRSocket(WAIT);
	}

	@TearDown(Level.Trial)
	public void stop() {
		rsocket.dispose();
		plain.close();
		fiber.close();
	}

	private static int policy(double[] observation) {
		return observation[2] + 0.5 * observation[3] > 0 ? 1 : 0;
	}

	private void advance(int i, Step step) {
		observations.set(i, step.done() ? envs.get(i).reset().block(WAIT) : step.observation());
	}

	@Benchmark
	public Step oneRemoteStep() {
		Step step = envs.get(0).step(policy(observations.get(0))).block(WAIT);
		advance(0, step);
		return step;
	}

	@Benchmark
	public Step oneRemoteStepWithDeadline() {
		Step step = deadlined.step(policy(deadlinedObservation)).block(WAIT);
		deadlinedObservation = step.done() ? deadlined.reset().block(WAIT) : step.observation();
		return step;
	}

	@Benchmark
	public Payload plainRSocketRequestResponse() {
		Payload p = DefaultPayload.create(message);
		Payload answer = rsocket.requestResponse(p).block(WAIT);
		answer.release();
		return answer;
	}

	@Benchmark
	public int timeStepOfFourSync() {
		for (int i = 0; i < envs.size(); i++) {
			advance(i, envs.get(i).step(policy(observations.get(i))).block(WAIT));
		}
		return envs.size();
	}

	@Benchmark
	public int timeStepOfFourAsync() {
		List<Step> steps = Flux.range(0, envs.size())
				.flatMapSequential(i -> envs.get(i).step(policy(observations.get(i))))
				.collectList().block(WAIT);
		for (int i = 0; i < steps.size(); i++) {
			advance(i, steps.get(i));
		}
		return steps.size();
	}
}
