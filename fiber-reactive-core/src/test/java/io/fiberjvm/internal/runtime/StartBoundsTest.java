package io.fiberjvm.internal.runtime;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.StepVerifier;

import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.backend.JobStatusFeed;

import static org.assertj.core.api.Assertions.assertThat;

/** The bounds on a job's start, in virtual time: the wait for a machine, then the start once placed. */
class StartBoundsTest {

	private static final StartBounds BOUNDS = new StartBounds(Duration.ofMinutes(10), Duration.ofSeconds(60));
	private static final String UNPLACEABLE = "0/1 nodes are available: 1 Insufficient cpu.";

	/** A job whose statuses the test moves on. */
	private static final class StubJob implements Job {
		final JobStatusFeed feed;

		StubJob(JobStatus first) {
			feed = new JobStatusFeed(first);
		}

		@Override
		public String id() {
			return "sim-1";
		}

		@Override
		public JobSpec spec() {
			return JobSpec.of("sim-1", List.of("java"));
		}

		@Override
		public OptionalLong pid() {
			return OptionalLong.empty();
		}

		@Override
		public JobStatus status() {
			return feed.current();
		}

		@Override
		public Flux<JobStatus> statuses() {
			return feed.flux();
		}

		@Override
		public Mono<Void> terminate() {
			return Mono.empty();
		}

		@Override
		public Flux<String> logs() {
			return Flux.empty();
		}
	}

	private static JobStatus unscheduled() {
		return new JobStatus(JobStatus.Phase.UNSCHEDULED, null, UNPLACEABLE);
	}

	@Test
	void timeWaitingForAMachineDoesNotCountAgainstTheStartTimeout() {
		StubJob job = new StubJob(unscheduled());
		Sinks.Empty<Void> started = Sinks.empty();
		StepVerifier.withVirtualTime(() -> BOUNDS.watch(job, started.asMono(), "process 'sim'"))
				.expectSubscription()
				// Five minutes unplaced, far past the start timeout: no failure.
				.expectNoEvent(Duration.ofMinutes(5))
				.then(() -> job.feed.advance(new JobStatus(JobStatus.Phase.PENDING, null, "ContainerCreating")))
				.expectNoEvent(Duration.ofSeconds(59))
				.then(started::tryEmitEmpty)
				.verifyComplete();
	}

	@Test
	void aJobNeverPlacedFailsAfterThePendingTimeoutWithTheSchedulersReason() {
		StubJob job = new StubJob(unscheduled());
		StepVerifier.withVirtualTime(() -> BOUNDS.watch(job, Mono.never(), "process 'sim' (job sim-1)"))
				.expectSubscription()
				.expectNoEvent(Duration.ofMinutes(10).minusSeconds(1))
				.thenAwait(Duration.ofSeconds(1))
				.assertNext(why -> assertThat(why).isEqualTo("process 'sim' (job sim-1) was not placed on a machine within PT10M "
						+ "(fiber.pending-timeout): " + UNPLACEABLE + "; it was deleted"))
				.verifyComplete();
	}

	@Test
	void onceRunningTheStartTimeoutApplies() {
		StubJob job = new StubJob(new JobStatus(JobStatus.Phase.RUNNING, null, "pid 7"));
		StepVerifier.withVirtualTime(() -> BOUNDS.watch(job, Mono.never(), "process 'sim'"))
				.expectSubscription()
				.thenAwait(Duration.ofSeconds(60))
				.assertNext(why -> assertThat(why).contains("did not connect back within PT1M (fiber.start-timeout)"))
				.verifyComplete();
	}

	@Test
	void aJobThatEndsStopsTheWatch() {
		StubJob job = new StubJob(unscheduled());
		StepVerifier.withVirtualTime(() -> BOUNDS.watch(job, Mono.never(), "process 'sim'"))
				.expectSubscription()
				.then(() -> job.feed.advance(JobStatus.exited(1, "deleted")))
				.verifyComplete();
	}
}
