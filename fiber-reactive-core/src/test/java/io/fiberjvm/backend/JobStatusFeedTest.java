package io.fiberjvm.backend;

import org.junit.jupiter.api.Test;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

class JobStatusFeedTest {

	private static final JobStatus PENDING = new JobStatus(JobStatus.Phase.PENDING, null, "");
	private static final JobStatus RUNNING = new JobStatus(JobStatus.Phase.RUNNING, null, "");

	@Test
	void everySubscriberSeesTheLatestFirstAndNoRepeats() {
		JobStatusFeed feed = new JobStatusFeed(PENDING);
		assertThat(feed.advance(RUNNING)).isTrue();
		assertThat(feed.advance(RUNNING)).isFalse();
		StepVerifier.create(feed.flux())
				.expectNext(RUNNING)
				.then(() -> feed.advance(JobStatus.exited(3, "")))
				.expectNext(JobStatus.exited(3, ""))
				.verifyComplete();
	}

	@Test
	void aTerminalStatusIsFinal() {
		JobStatusFeed feed = new JobStatusFeed(PENDING);
		feed.advance(JobStatus.exited(0, ""));
		assertThat(feed.advance(RUNNING)).isFalse();
		assertThat(feed.current()).isEqualTo(JobStatus.exited(0, ""));
		StepVerifier.create(feed.flux()).expectNext(JobStatus.exited(0, "")).verifyComplete();
		StepVerifier.create(new JobStatusFeed(JobStatus.exited(1, "")).flux()).expectNext(JobStatus.exited(1, "")).verifyComplete();
	}
}
