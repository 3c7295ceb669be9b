package io.fiberjvm.transport.rsocket;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.testing.BlockingCalls;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A periodic timer (a keep-alive's) cancelled on one non-blocking thread while its worker runs on another takes
 * the worker's queue lock for a moment: not a blocking call this suite may fail a test for, nor one that may
 * leave the timer half cancelled.
 */
class TimersCancelledAcrossThreadsTest {

	@Test
	void periodicTimersCancelledFromOtherParallelWorkersRecordNoBlockingCall() throws InterruptedException {
		int mark = BlockingCalls.mark();
		int timers = 20_000;
		CountDownLatch cancelled = new CountDownLatch(timers);
		for (int i = 0; i < timers; i++) {
			Disposable ticks = Flux.interval(Duration.ZERO, Duration.ofNanos(1_000), Schedulers.parallel()).subscribe();
			Schedulers.parallel().schedule(() -> {
				ticks.dispose();
				cancelled.countDown();
			});
		}
		assertThat(cancelled.await(60, TimeUnit.SECONDS)).as("every timer cancelled").isTrue();
		assertThat(BlockingCalls.since(mark)).isEmpty();
	}
}
