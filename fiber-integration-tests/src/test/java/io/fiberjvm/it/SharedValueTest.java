package io.fiberjvm.it;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import io.fiberjvm.FiberException;
import io.fiberjvm.FiberFunction;
import io.fiberjvm.Shared;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.pool.FiberPool;
import io.fiberjvm.queue.FiberQueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Values shared once per JVM, over real worker JVMs. */
@Timeout(300)
class SharedValueTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(240);

	@Test
	void aValueUsedBy1000TasksOn8WorkersIsFetchedOncePerWorker() {
		double[] weights = new double[1_000_000];
		Arrays.setAll(weights, i -> i * 0.5);
		Shared<double[]> shared = fiber.share(weights);
		assertThat(shared.value().block(LONG)).as("the sharer's own value").isSameAs(weights);
		try (FiberPool pool = fiber.pool(8).open()) {
			await().atMost(LONG).until(() -> pool.stats().workers() == 8);
			// Each task says which JVM ran it, and what it read; a few milliseconds each, so all eight take part.
			FiberFunction<Integer, String> read = i -> {
				SimulatedWork.pause(5);
				return ProcessHandle.current().pid() + " " + shared.get()[i * 997];
			};
			List<String> read1000 = pool.map(read, Flux.range(0, 1000)).collectList().block(LONG);
			assertThat(read1000).extracting(line -> line.substring(line.indexOf(' ') + 1))
					.isEqualTo(IntStream.range(0, 1000).mapToObj(i -> Double.toString(i * 997 * 0.5)).toList());
			long jvms = read1000.stream().map(line -> line.substring(0, line.indexOf(' '))).distinct().count();
			assertThat(jvms).isEqualTo(8);
			assertThat(shared.fetches()).as("one fetch per worker JVM").isEqualTo(8);
		}
	}

	@Test
	void workersSharingOneJvmFetchTheValueOnceThoughTheyAllAskAtOnce() {
		Shared<String> shared = fiber.share("one copy");
		try (FiberPool pool = fiber.pool(4).workersPerProcess(4).open()) {
			await().atMost(LONG).until(() -> pool.stats().workers() == 4);
			FiberFunction<Integer, String> read = i -> shared.get() + " " + i;
			assertThat(pool.map(read, Flux.range(0, 64)).collectList().block(LONG))
					.isEqualTo(IntStream.range(0, 64).mapToObj(i -> "one copy " + i).toList());
			assertThat(shared.fetches()).isEqualTo(1);
		}
	}

	@Test
	void aHandleTravelsInAQueueItemAndItsReleaseReachesTheJvmsThatFetchedIt() {
		Shared<String> shared = fiber.share("weights of iteration 1");
		FiberQueue<Shared> handles = fiber.queue(Shared.class);
		try (FiberPool pool = fiber.pool(1).open()) {
			FiberFunction<Integer, String> take = n -> ((Shared<?>) handles.take().block(LONG)).get() + " #" + n;
			StepVerifier.create(handles.put(shared).then(pool.apply(take, 1))).expectNext("weights of iteration 1 #1").verifyComplete();
			assertThat(shared.fetches()).isEqualTo(1);

			StepVerifier.create(shared.release()).verifyComplete();
			FiberFunction<Integer, String> read = n -> {
				try {
					return shared.get();
				}
				catch (FiberException e) {
					return e.getMessage();
				}
			};
			// The worker drops its copy once the release reaches it; then a read asks the sharer, which has forgotten it.
			await().atMost(LONG).until(() -> pool.apply(read, 0).block(LONG), text -> text.contains("was released"));
		}
		assertThatThrownBy(() -> shared.get()).isInstanceOf(FiberException.class).hasMessageContaining(shared.id());
	}

	@Test
	void aValueThatCannotTravelIsRefusedWhenShared() {
		assertThatThrownBy(() -> fiber.share(new Object())).isInstanceOf(CodecException.class).hasMessageContaining("not Serializable");
		assertThatThrownBy(() -> fiber.share(List.of(java.net.URI.create("http://x")))).isInstanceOf(CodecException.class)
				.hasMessageContaining("add java.net.* to serial-allow");
	}
}
