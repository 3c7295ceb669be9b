package io.fiberjvm.manager;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@Timeout(60)
class SerialExecutorTest {

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stop() {
		threads.shutdownNow();
	}

	@Test
	void anAbandonedExecutorHandsItsQueuedTasksThenLaterOnesToItsSuccessorInOrder() throws Exception {
		SerialExecutor stuck = new SerialExecutor(threads);
		CountDownLatch running = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> ran = new CopyOnWriteArrayList<>();
		stuck.execute(() -> {
			running.countDown();
			try {
				release.await();
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
			ran.add("stuck");
		});
		assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();
		stuck.execute(() -> ran.add("queued 1"));
		stuck.execute(() -> ran.add("queued 2"));
		SerialExecutor next = new SerialExecutor(threads);
		stuck.abandon(next);
		stuck.execute(() -> ran.add("later"));
		await().until(() -> ran.size() == 3);
		assertThat(ran).containsExactly("queued 1", "queued 2", "later");
		// The stuck task ends on its own thread, and nothing more runs there.
		release.countDown();
		await().until(() -> ran.size() == 4);
		assertThat(ran).endsWith("stuck");
		stuck.execute(() -> ran.add("after"));
		await().until(() -> ran.size() == 5);
		assertThat(ran).endsWith("after");
	}
}
