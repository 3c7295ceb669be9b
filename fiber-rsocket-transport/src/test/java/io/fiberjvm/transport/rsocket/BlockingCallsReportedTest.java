package io.fiberjvm.transport.rsocket;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.testing.BlockingCalls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** A test that blocks a non-blocking thread fails, naming the call and who made it; one that blocks its own thread passes. */
class BlockingCallsReportedTest {

	/** Run only through the test kit below; the build's own run leaves nested classes out. */
	static class Sample {

		@Test
		void sleepsOnAParallelWorker() {
			Mono.fromCallable(() -> {
				Thread.sleep(1);
				return "slept";
			}).subscribeOn(Schedulers.parallel()).block(Duration.ofSeconds(10));
		}

		@Test
		void waitsOnItsOwnThread() {
			// A blocking wait on the test's own thread, which may block.
			Mono.delay(Duration.ofMillis(1)).block(Duration.ofSeconds(10));
		}
	}

	@Test
	void aTestThatBlocksAParallelWorkerFailsSayingWhereAndTheOthersPass() {
		int mark = BlockingCalls.mark();
		Events tests = EngineTestKit.engine("junit-jupiter")
				.configurationParameter("junit.jupiter.extensions.autodetection.enabled", "true")
				.selectors(selectClass(Sample.class))
				.execute()
				.testEvents();
		// The sample's call was made on purpose: this test claims it.
		BlockingCalls.claim(mark, call -> call.stack().contains("Sample"));

		assertThat(tests.succeeded().count()).isEqualTo(1);
		assertThat(tests.failed().list()).singleElement().satisfies(failed -> {
			assertThat(failed.getTestDescriptor().getDisplayName()).contains("sleepsOnAParallelWorker");
			Throwable why = failed.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow();
			assertThat(why).hasMessageContaining("blocking calls on non-blocking threads during this test")
					.hasMessageContaining("sleep")
					.hasMessageContaining("parallel-")
					.hasMessageContaining("lambda$sleepsOnAParallelWorker");
		});
	}
}
