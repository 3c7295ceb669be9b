package io.fiberjvm.internal;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(30)
class LargeDecodingTest {

	private static final ByteBuffer LARGE = ByteBuffer.allocate(LargeDecoding.LARGE);

	private static final ByteBuffer SMALL = ByteBuffer.allocate(LargeDecoding.LARGE - 1);

	/** A thread like a connection's: Reactor's non-blocking kind. */
	private final Scheduler connectionLike = Schedulers.newParallel("connection-like", 1);

	@AfterEach
	void stop() {
		connectionLike.dispose();
	}

	/** The thread {@code run} decodes on, called from a thread of {@code caller}. */
	private static String decodedOn(Scheduler caller, ByteBuffer value) throws Exception {
		CompletableFuture<String> thread = new CompletableFuture<>();
		caller.schedule(() -> LargeDecoding.run(value, () -> thread.complete(Thread.currentThread().getName()),
				thread::completeExceptionally));
		return thread.get(20, TimeUnit.SECONDS);
	}

	@Test
	void aLargeValueOnANonBlockingThreadIsDecodedOnABoundedElasticWorker() throws Exception {
		assertThat(decodedOn(connectionLike, LARGE)).startsWith("boundedElastic");
	}

	@Test
	void aSmallValueOrABlockingThreadDecodesWhereItIs() throws Exception {
		assertThat(decodedOn(connectionLike, SMALL)).startsWith("connection-like");
		String[] decodedOn = new String[1];
		LargeDecoding.run(LARGE, () -> decodedOn[0] = Thread.currentThread().getName(), e -> { });
		assertThat(decodedOn[0]).isEqualTo(Thread.currentThread().getName());
		assertThat(LargeDecoding.holdsUpConnection(null)).isFalse();
	}

	@Test
	void theMonoIsEmptyForNullAndDecodesALargeValueOffTheNonBlockingThread() {
		StepVerifier.create(Mono.defer(() -> LargeDecoding.mono(LARGE, () -> Thread.currentThread().getName()))
				.subscribeOn(connectionLike))
				.assertNext(thread -> assertThat(thread).startsWith("boundedElastic"))
				.verifyComplete();
		StepVerifier.create(Mono.defer(() -> LargeDecoding.<String>mono(SMALL, () -> null)).subscribeOn(connectionLike))
				.expectComplete()
				.verify(Duration.ofSeconds(20));
	}

	@Test
	void whatALargeDecodingThrowsOffTheThreadReachesTheOneWaitingErrorsIncluded() throws Exception {
		CompletableFuture<Throwable> failed = new CompletableFuture<>();
		connectionLike.schedule(() -> LargeDecoding.run(LARGE, () -> {
			throw new ExceptionInInitializerError("a result class failed to initialize");
		}, failed::complete));
		assertThat(failed.get(20, TimeUnit.SECONDS)).isInstanceOf(ExceptionInInitializerError.class);
		StepVerifier.create(Mono.defer(() -> LargeDecoding.<String>mono(LARGE, () -> {
			throw new StackOverflowError("a deep graph");
		})).subscribeOn(connectionLike))
				.expectError(StackOverflowError.class)
				.verify(Duration.ofSeconds(20));
	}
}
