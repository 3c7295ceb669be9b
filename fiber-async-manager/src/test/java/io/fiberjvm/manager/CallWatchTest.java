package io.fiberjvm.manager;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Timeout(60)
class CallWatchTest {

	private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
	/** A grace no call that returns when interrupted outlasts, however loaded the machine. */
	private final CallWatch watch = new CallWatch(timer, Duration.ofMinutes(1));
	/** A grace short enough to wait for, for calls deaf to their interrupt. */
	private final CallWatch impatient = new CallWatch(timer, Duration.ofMillis(200));

	CallWatchTest() {
		// As the manager's own timer does: a cancelled alarm leaves its queue at once.
		timer.setRemoveOnCancelPolicy(true);
	}

	@AfterEach
	void stop() {
		timer.shutdownNow();
	}

	@Test
	void aCallWithinItsDeadlineRanAndLeavesNoInterruptBehind() {
		AtomicBoolean stuck = new AtomicBoolean();
		CallWatch.Watched watched = watch.start(TimeUnit.MINUTES.toNanos(1), () -> stuck.set(true));
		assertThat(watched.end()).isEqualTo(CallWatch.End.RAN);
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		// The one alarm stays for the next call, and finds nothing to interrupt when it rings.
		assertThat(timer.getQueue()).hasSize(1);
		assertThat(stuck).isFalse();
	}

	@Test
	void aShorterDeadlineMadeLaterIsMetThoughTheAlarmWasSetForALongerOne() throws Exception {
		Thread[] longThread = new Thread[1];
		CountDownLatch longStarted = new CountDownLatch(1);
		CompletableFuture<CallWatch.End> longer = CompletableFuture.supplyAsync(() -> {
			longThread[0] = Thread.currentThread();
			CallWatch.Watched watched = watch.start(TimeUnit.MINUTES.toNanos(10), () -> { });
			longStarted.countDown();
			return sleepUntilInterrupted(watched);
		});
		assertThat(longStarted.await(30, TimeUnit.SECONDS)).isTrue();
		// Met within the test's timeout only if the alarm moved earlier for it.
		CompletableFuture<CallWatch.End> shorter = CompletableFuture.supplyAsync(
				() -> sleepUntilInterrupted(watch.start(TimeUnit.MILLISECONDS.toNanos(20), () -> { })));
		assertThat(shorter.get(30, TimeUnit.SECONDS)).isEqualTo(CallWatch.End.TIMED_OUT);
		// The alarm is set again for the longer call, which is not interrupted before its deadline.
		await().atMost(Duration.ofSeconds(10)).until(() -> timer.getQueue().size() == 1);
		assertThat(longer).isNotDone();
		longThread[0].interrupt();
		assertThat(longer.get(30, TimeUnit.SECONDS)).isEqualTo(CallWatch.End.RAN);
	}

	private static CallWatch.End sleepUntilInterrupted(CallWatch.Watched watched) {
		try {
			new CountDownLatch(1).await();
		}
		catch (InterruptedException expected) {
			// The watch's interrupt: the call stops.
		}
		return watched.end();
	}

	@Test
	void aCallPastItsDeadlineIsInterruptedAndTimesOut() throws Exception {
		AtomicBoolean stuck = new AtomicBoolean();
		CompletableFuture<CallWatch.End> ended = CompletableFuture.supplyAsync(() -> {
			CallWatch.Watched watched = watch.start(TimeUnit.MILLISECONDS.toNanos(50), () -> stuck.set(true));
			try {
				new CountDownLatch(1).await();
			}
			catch (InterruptedException expected) {
				// The watch's interrupt: the call stops.
			}
			CallWatch.End end = watched.end();
			assertThat(Thread.currentThread().isInterrupted()).isFalse();
			return end;
		});
		assertThat(ended.get(30, TimeUnit.SECONDS)).isEqualTo(CallWatch.End.TIMED_OUT);
		assertThat(stuck).isFalse();
	}

	@Test
	void aCallDeafToItsInterruptIsReportedStuckAfterItsGrace() throws Exception {
		CountDownLatch reported = new CountDownLatch(1);
		AtomicBoolean interrupted = new AtomicBoolean();
		CompletableFuture<CallWatch.End> ended = CompletableFuture.supplyAsync(() -> {
			CallWatch.Watched watched = impatient.start(TimeUnit.MILLISECONDS.toNanos(50), reported::countDown);
			// Deaf to interrupts until the watch has given it up.
			while (reported.getCount() > 0) {
				try {
					reported.await();
				}
				catch (InterruptedException deaf) {
					interrupted.set(true);
				}
			}
			return watched.end();
		});
		assertThat(ended.get(30, TimeUnit.SECONDS)).isEqualTo(CallWatch.End.STUCK);
		assertThat(interrupted).isTrue();
	}

	@Test
	void aCallThatEndsBeforeItsGraceIsNotReportedStuck() throws Exception {
		AtomicBoolean stuck = new AtomicBoolean();
		CallWatch.Watched[] watched = new CallWatch.Watched[1];
		CountDownLatch started = new CountDownLatch(1);
		CompletableFuture<CallWatch.End> ended = CompletableFuture.supplyAsync(() -> {
			watched[0] = watch.start(TimeUnit.MILLISECONDS.toNanos(10), () -> stuck.set(true));
			started.countDown();
			while (!Thread.currentThread().isInterrupted()) {
				Thread.onSpinWait();
			}
			// Returns with its interrupt still set: the end clears it, so the thread's next call does not see it.
			CallWatch.End end = watched[0].end();
			assertThat(Thread.currentThread().isInterrupted()).isFalse();
			return end;
		});
		assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
		assertThat(ended.get(30, TimeUnit.SECONDS)).isEqualTo(CallWatch.End.TIMED_OUT);
		// The grace alarm was cancelled with the call's end.
		await().atMost(Duration.ofSeconds(10)).until(() -> timer.getQueue().isEmpty());
		assertThat(stuck).isFalse();
	}
}
