package io.fiberjvm.it;

import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.manager.AsyncManager;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.pool.TaskFailedException;
import io.fiberjvm.queue.FiberQueue;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One codec for every primitive, over real child JVMs: a type that travels in a pool travels in a queue and a
 * manager too, and a type the other side would refuse fails at the sender's call in each, with one line naming
 * the pattern to add, and nothing half-sent.
 */
@Timeout(180)
class OneCodecTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(120);

	/** A value without a no-argument constructor, as RL code writes them. */
	public static final class Transition implements Serializable {
		private static final long serialVersionUID = 1L;
		private final double[] observation;
		private final double reward;

		public Transition(double[] observation, double reward) {
			this.observation = observation;
			this.reward = reward;
		}

		double sum() {
			double s = reward;
			for (double o : observation) {
				s += o;
			}
			return s;
		}
	}

	/** The async face of {@link Replay}. */
	public interface Buffer {
		Mono<Integer> add(Object value);

		Mono<Transition> last();
	}

	/** Keeps what it is given. */
	public static class Replay {
		private Object last;
		private int size;

		public int add(Object value) {
			last = value;
			return ++size;
		}

		public Transition last() {
			return (Transition) last;
		}
	}

	@Test
	void aValueWithoutANoArgumentConstructorTravelsInAPoolAQueueAndAManager() {
		Transition t = new Transition(new double[] {1, 2}, 0.5);
		try (FiberPool pool = fiber.pool(1).open()) {
			FiberFunction<Transition, Transition> twice = x -> new Transition(x.observation, x.reward * 2);
			StepVerifier.create(pool.apply(twice, t).map(Transition::sum)).expectNext(4.0).verifyComplete();

			FiberQueue<Transition> queue = fiber.queue(Transition.class);
			FiberFunction<Integer, Integer> produce = n -> {
				queue.put(new Transition(new double[] {n}, 1)).block(LONG);
				return n;
			};
			StepVerifier.create(pool.apply(produce, 7)).expectNext(7).verifyComplete();
			StepVerifier.create(queue.take().map(Transition::sum)).expectNext(8.0).verifyComplete();
		}
		AsyncManager manager = AsyncManager.on(fiber).register(Buffer.class, Replay.class).name("replay").start().block(LONG);
		Buffer buffer = manager.create(Buffer.class);
		StepVerifier.create(buffer.add(t)).expectNext(1).verifyComplete();
		StepVerifier.create(buffer.last().map(Transition::sum)).expectNext(3.5).verifyComplete();
	}

	@Test
	void aTypeOutsideTheAllowListIsRefusedAtTheSenderOfEveryPrimitiveNamingThePatternToAdd() {
		URI outside = URI.create("http://example.org");
		FiberQueue<Object> queue = fiber.queue(Object.class);
		StepVerifier.create(queue.put(List.of(outside))).expectErrorSatisfies(OneCodecTest::namesTheFix).verify(LONG);
		StepVerifier.create(queue.size()).as("nothing was enqueued").expectNext(0).verifyComplete();
		StepVerifier.create(queue.send(Flux.just(outside))).expectErrorSatisfies(OneCodecTest::namesTheFix).verify(LONG);
		StepVerifier.create(queue.put("fine").then(queue.take())).expectNext("fine").verifyComplete();

		try (FiberPool pool = fiber.pool(1).open()) {
			FiberFunction<Object, String> describe = String::valueOf;
			StepVerifier.create(pool.apply(describe, outside)).expectErrorSatisfies(OneCodecTest::namesTheFix).verify(LONG);
			StepVerifier.create(pool.map(describe, Flux.just((Object) "a", outside))).expectNext("a")
					.expectErrorSatisfies(OneCodecTest::namesTheFix).verify(LONG);
			// A result the worker could not send back fails its own task, with the same line.
			FiberFunction<String, Object> make = URI::create;
			StepVerifier.create(pool.apply(make, "http://example.org"))
					.expectErrorSatisfies(e -> assertThat(e).isInstanceOf(TaskFailedException.class)
							.hasMessageContaining("java.net.URI").hasMessageContaining("add java.net.* to serial-allow"))
					.verify(LONG);
			StepVerifier.create(pool.apply(describe, "still works")).expectNext("still works").verifyComplete();
		}

		AsyncManager manager = AsyncManager.on(fiber).register(Buffer.class, Replay.class).name("refuse").start().block(LONG);
		Buffer buffer = manager.create(Buffer.class);
		StepVerifier.create(buffer.add(outside)).expectErrorSatisfies(OneCodecTest::namesTheFix).verify(LONG);
		StepVerifier.create(buffer.add("fine")).expectNext(1).verifyComplete();
	}

	@Test
	void thePatternTheRefusalNamesMakesTheTypeTravel() {
		try (Fiber allowing = Fiber.builder().set("serial-allow", "java.net.*").open()) {
			try (FiberPool pool = allowing.pool(1).open()) {
				FiberFunction<URI, String> host = URI::getHost;
				StepVerifier.create(pool.apply(host, URI.create("http://example.org"))).expectNext("example.org").verifyComplete();
			}
			FiberQueue<URI> queue = allowing.queue(URI.class);
			StepVerifier.create(queue.put(URI.create("http://a")).then(queue.take())).expectNext(URI.create("http://a")).verifyComplete();
		}
	}

	private static void namesTheFix(Throwable e) {
		assertThat(e).isInstanceOf(CodecException.class);
		assertThat(e.getMessage()).contains("java.net.URI").contains("add java.net.* to serial-allow").doesNotContain("\n");
	}
}
