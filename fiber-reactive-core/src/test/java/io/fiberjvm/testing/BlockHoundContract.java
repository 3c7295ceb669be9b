package io.fiberjvm.testing;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a suite that runs with BlockHound checks of itself: a blocking call on a thread that must not block fails
 * where it is made and is recorded with the code that made it, for {@link BlockingCallsReported} to fail its test.
 */
public interface BlockHoundContract {

	@Test
	default void aSleepOnAParallelWorkerFailsAndIsRecordedWithItsCaller() {
		int mark = BlockingCalls.mark();
		StepVerifier.create(Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel()))
				.expectError(BlockingOperationError.class)
				.verify(Duration.ofSeconds(10));
		// Claimed: made on purpose here, it does not fail this test.
		assertThat(BlockingCalls.claim(mark, call -> call.method().contains("sleep"))).singleElement().satisfies(call -> {
			assertThat(call.thread()).startsWith("parallel-");
			assertThat(call.stack()).contains("aSleepOnAParallelWorkerFailsAndIsRecordedWithItsCaller");
		});
	}
}
