package io.fiberjvm.testing;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class SchedulerStallsTest {

	private static final Duration STALL = Duration.ofMillis(400);

	private volatile boolean released;

	/** Busy in one method, without a pause, until released: what a stalled timer thread looks like to the watch. */
	private long spinUntilReleased() {
		long spins = 0;
		while (!released) {
			spins++;
		}
		return spins;
	}

	@Test
	void aWatchedThreadBusyPastTheStallIsRecordedWithItsStackOnce() throws Exception {
		Thread spinner = new Thread(this::spinUntilReleased, "stall-test-spinner");
		try (SchedulerStalls watch = new SchedulerStalls(STALL, name -> name.startsWith("stall-test-"))) {
			spinner.start();
			await().atMost(Duration.ofSeconds(30)).until(() -> watch.count() == 1);
			// Still busy: the same stall, seen later, not a second one.
			await().atMost(Duration.ofSeconds(30)).until(() -> watch.since(0).get(0).busy().compareTo(STALL.multipliedBy(2)) > 0);
			assertThat(watch.count()).isEqualTo(1);
			assertThat(watch.since(0).get(0).thread()).isEqualTo("stall-test-spinner");
			assertThat(watch.since(0).get(0).toString()).contains("spinUntilReleased");
			assertThat(watch.ongoing()).hasSize(1);
			assertThat(watch.since(1)).isEmpty();
			released = true;
			await().atMost(Duration.ofSeconds(30)).until(() -> watch.ongoing().isEmpty());
			assertThat(watch.count()).isEqualTo(1);
		}
		finally {
			released = true;
			spinner.join(TimeUnit.SECONDS.toMillis(30));
		}
	}

	@Test
	void anIdleExecutorThreadAndAnUnwatchedBusyOneAreNotStalls() throws Exception {
		ScheduledExecutorService idle = Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "stall-test-idle"));
		Thread other = new Thread(this::spinUntilReleased, "other-spinner");
		try (SchedulerStalls watch = new SchedulerStalls(STALL, name -> name.startsWith("stall-test-"))) {
			idle.schedule(() -> { }, 1, TimeUnit.HOURS);
			other.start();
			CountDownLatch sampled = new CountDownLatch(1);
			// Five stalls' time, measured on the idle executor itself.
			idle.schedule(sampled::countDown, STALL.toMillis() * 5, TimeUnit.MILLISECONDS);
			assertThat(sampled.await(30, TimeUnit.SECONDS)).isTrue();
			assertThat(watch.count()).isZero();
		}
		finally {
			released = true;
			other.join(TimeUnit.SECONDS.toMillis(30));
			idle.shutdownNow();
		}
	}
}
