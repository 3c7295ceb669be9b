package io.fiberjvm.testing;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import reactor.blockhound.BlockingOperationError;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;

/** What a suite that runs with BlockHound checks of itself: a blocking call on a thread that must not block fails. */
public interface BlockHoundContract {

	@Test
	default void aSleepOnAParallelWorkerFails() {
		StepVerifier.create(Mono.fromCallable(() -> {
			Thread.sleep(1);
			return "slept";
		}).subscribeOn(Schedulers.parallel()))
				.expectError(BlockingOperationError.class)
				.verify(Duration.ofSeconds(10));
	}
}
