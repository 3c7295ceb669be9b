package io.fiberjvm.testkit;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

import org.junit.jupiter.api.Test;

import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.JobStatus;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link Backend} must do, as JUnit 5 default methods: an implementation's test class
 * implements this interface and says how to open its backend. Jobs run {@code sh} scripts; none of the
 * tests depends on how fast a job starts or ends.
 */
public interface BackendContract {

	Duration LIMIT = Duration.ofSeconds(60);

	/** A new backend, closed by the implementation after the test. */
	Backend openBackend();

	/** A spec as a runtime would make it: a unique name, the run's label and secret. */
	default JobSpec job(String script) {
		String name = "contract-" + Long.toString(ThreadLocalRandom.current().nextLong() >>> 28, 36);
		return JobSpec.of(name, List.of("sh", "-c", script))
				.withEnvironment(Map.of(JobSpec.SECRET_ENV, "contract-secret"))
				.withLabel("fiber-run", "contract");
	}

	@Test
	default void aJobThatExitsWithZeroSucceedsAndItsOutputCanBeRead() {
		Backend backend = openBackend();
		Job job = backend.create(job("echo hello from a job; exit 0")).block(LIMIT);
		JobStatus end = job.onTerminal().block(LIMIT);
		assertThat(end.phase()).isEqualTo(JobStatus.Phase.SUCCEEDED);
		assertThat(end.exitCode()).isZero();
		assertThat(job.status()).isEqualTo(end);
		assertThat(job.logs().collectList().block(LIMIT)).contains("hello from a job");
	}

	@Test
	default void anExitCodeIsReported() {
		Job job = openBackend().create(job("exit 3")).block(LIMIT);
		JobStatus end = job.onTerminal().block(LIMIT);
		assertThat(end.phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(end.exitCode()).isEqualTo(3);
		// Every subscriber sees the latest status first, and the sequence completes after it.
		assertThat(job.statuses().collectList().block(LIMIT)).containsExactly(end);
	}

	@Test
	default void theEnvironmentAndTheRunSecretReachTheJob() {
		JobSpec spec = job("echo \"color=$COLOR\"; echo \"secret=$" + JobSpec.SECRET_ENV + "\"")
				.withEnvironment(Map.of("COLOR", "teal"));
		Job job = openBackend().create(spec).block(LIMIT);
		assertThat(job.onTerminal().block(LIMIT).exitCode()).isZero();
		assertThat(job.logs().collectList().block(LIMIT)).contains("color=teal", "secret=contract-secret");
	}

	@Test
	default void aJobRunsUntilItIsTerminated() {
		Job job = openBackend().create(job("echo started; exec sleep 600")).block(LIMIT);
		job.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);
		job.terminate().block(LIMIT);
		assertThat(job.status().phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(job.status().isTerminal()).isTrue();
	}

	@Test
	default void closingTheBackendEndsEveryJob() {
		Backend backend = openBackend();
		Job first = backend.create(job("exec sleep 600")).block(LIMIT);
		Job second = backend.create(job("exec sleep 600")).block(LIMIT);
		first.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);
		second.statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING).next().block(LIMIT);
		backend.close();
		assertThat(first.onTerminal().block(LIMIT).isTerminal()).isTrue();
		assertThat(second.onTerminal().block(LIMIT).isTerminal()).isTrue();
	}
}
