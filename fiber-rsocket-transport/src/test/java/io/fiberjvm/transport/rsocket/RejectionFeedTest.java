package io.fiberjvm.transport.rsocket;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.test.StepVerifier;

import io.fiberjvm.transport.RejectedConnection;

import static org.assertj.core.api.Assertions.assertThat;

class RejectionFeedTest {

	@Test
	@Timeout(60)
	void refusalsReportedOnManyThreadsAtOnceAllReachTheSubscriber() throws Exception {
		RejectionFeed feed = new RejectionFeed();
		List<RejectedConnection> seen = new CopyOnWriteArrayList<>();
		feed.asFlux().subscribe(seen::add);
		int threads = 4;
		int each = 5_000;
		ExecutorService pool = Executors.newFixedThreadPool(threads);
		CountDownLatch start = new CountDownLatch(1);
		try {
			for (int t = 0; t < threads; t++) {
				String address = "/127.0.0.1:" + (40_000 + t);
				pool.execute(() -> {
					try {
						start.await();
					}
					catch (InterruptedException e) {
						Thread.currentThread().interrupt();
						return;
					}
					for (int i = 0; i < each; i++) {
						feed.report(address, "bad frame " + i);
					}
				});
			}
			start.countDown();
		}
		finally {
			pool.shutdown();
			assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
		}
		assertThat(seen).hasSize(threads * each);
	}

	@Test
	void completingEndsTheFeed() {
		RejectionFeed feed = new RejectionFeed();
		StepVerifier.create(feed.asFlux())
				.then(() -> feed.report("/10.0.0.1:1", "not an RSocket peer"))
				.assertNext(r -> assertThat(r.reason()).isEqualTo("not an RSocket peer"))
				.then(feed::complete)
				.expectComplete()
				.verify(Duration.ofSeconds(10));
	}
}
