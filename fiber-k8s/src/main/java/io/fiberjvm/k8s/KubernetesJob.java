package io.fiberjvm.k8s;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.Arrays;
import java.util.OptionalLong;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.BytesLimitTerminateTimeTailPrettyLoggable;
import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.fabric8.kubernetes.client.dsl.Loggable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberException;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobSpec;
import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.backend.JobStatusFeed;

/**
 * A job running as a pod. Its statuses are what the backend's pod informer reports, never polled:
 * each change of the pod becomes a {@link JobStatus} once it differs from the last one, and a
 * terminal status is final.
 */
final class KubernetesJob implements Job {

	private static final Duration LOG_READ_LIMIT = Duration.ofSeconds(60);
	/** How long a followed log whose stream ended waits for the pod to end before it opens the stream again. */
	private static final Duration FOLLOW_END_WAIT = Duration.ofSeconds(10);
	/** Failed attempts in a row, with no line between them, after which following gives up. */
	private static final int FOLLOW_ATTEMPTS = 3;

	private final JobSpec spec;
	private final String namespace;
	private final KubernetesClient client;
	private final Duration grace;
	private final JobStatusFeed statuses = new JobStatusFeed(new JobStatus(JobStatus.Phase.PENDING, null, "pod created"));

	KubernetesJob(JobSpec spec, String namespace, KubernetesClient client, Duration grace) {
		this.spec = spec;
		this.namespace = namespace;
		this.client = client;
		this.grace = grace;
	}

	/** The pod as the informer saw it last. */
	void observe(Pod pod) {
		advance(PodStatuses.of(pod));
	}

	/** The pod is gone from the API. */
	void gone(Pod lastSeen) {
		advance(lastSeen == null ? new JobStatus(JobStatus.Phase.FAILED, PodStatuses.NO_EXIT_CODE, "the pod was deleted")
				: PodStatuses.deleted(lastSeen));
	}

	/** The pod could not be created. */
	void refused(String why) {
		advance(new JobStatus(JobStatus.Phase.FAILED, PodStatuses.NO_EXIT_CODE, why));
	}

	private synchronized void advance(JobStatus next) {
		// A running pod whose node stops reporting (phase Unknown) has not gone back to waiting.
		if (next.phase() == JobStatus.Phase.PENDING && statuses.current().phase() == JobStatus.Phase.RUNNING) {
			return;
		}
		statuses.advance(next);
	}

	@Override
	public String id() {
		return spec.name();
	}

	@Override
	public JobSpec spec() {
		return spec;
	}

	@Override
	public OptionalLong pid() {
		return OptionalLong.empty();
	}

	@Override
	public JobStatus status() {
		return statuses.current();
	}

	@Override
	public Flux<JobStatus> statuses() {
		return statuses.flux();
	}

	/**
	 * Deletes the pod with the grace period; the kubelet stops its container, and the informer reports
	 * the end. A pod still there well after its grace period (its node is gone, say) is deleted at once
	 * and the job ends as deleted.
	 */
	@Override
	public Mono<Void> terminate() {
		long graceSeconds = Math.max(1, (grace.toMillis() + 999) / 1000);
		return Mono.fromRunnable(() -> {
			if (!statuses.current().isTerminal()) {
				client.pods().inNamespace(namespace).withName(spec.name()).withGracePeriod(graceSeconds).delete();
			}
		}).subscribeOn(Schedulers.boundedElastic())
				.then(onTerminal().timeout(Duration.ofSeconds(graceSeconds + 30), Mono.fromCallable(() -> {
					client.pods().inNamespace(namespace).withName(spec.name()).withGracePeriod(0).delete();
					gone(null);
					return statuses.current();
				}).subscribeOn(Schedulers.boundedElastic())))
				.then();
	}

	@Override
	public Flux<String> logs() {
		return Mono.fromCallable(() -> {
			try {
				return client.pods().inNamespace(namespace).withName(spec.name()).inContainer(PodTemplate.CONTAINER).getLog();
			}
			catch (KubernetesClientException e) {
				throw new FiberException("the logs of pod " + spec.name() + " in namespace " + namespace
						+ " cannot be read: " + KubernetesBackend.describe(e), e);
			}
		}).subscribeOn(Schedulers.boundedElastic())
				// A log read the API server never answers must not hold a shared worker thread for good:
				// the timeout cancels the call, which interrupts it.
				.timeout(LOG_READ_LIMIT, Mono.error(() -> new FiberException("the logs of pod " + spec.name() + " in namespace "
						+ namespace + " did not come within " + LOG_READ_LIMIT.toSeconds() + " s")))
				// Splitting drops only the empty string after the last newline.
				.flatMapIterable(text -> text.isEmpty() ? java.util.List.of() : Arrays.asList(text.split("\r?\n")));
	}

	/**
	 * The container's output as it is written, through {@code pods/log?follow=true} once the pod runs, read
	 * on a daemon thread of its own (a pod may run for days). A stream that breaks while the pod runs is
	 * opened again from where it stopped ({@link LogCursor}); once the pod has ended, one last read from
	 * there delivers what the stream had not. A pod that ended before it was seen running hands over its
	 * output whole; a pod deleted before that last read takes the rest of its output with it. After the
	 * kubelet rotates a long log, only its current file can be read again.
	 */
	@Override
	public Flux<String> follow() {
		return statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING || s.isTerminal()).next()
				.flatMapMany(seen -> seen.isTerminal() ? logs() : Flux.<String>create(sink -> {
					AtomicReference<LogWatch> open = new AtomicReference<>();
					Thread reader = new Thread(() -> stream(sink, open), "fiber-pod-log-" + spec.name());
					reader.setDaemon(true);
					sink.onDispose(() -> {
						reader.interrupt();
						closeQuietly(open.get());
					});
					reader.start();
				}, FluxSink.OverflowStrategy.BUFFER));
	}

	private void stream(FluxSink<String> sink, AtomicReference<LogWatch> open) {
		LogCursor cursor = new LogCursor();
		int failures = 0;
		while (!sink.isCancelled()) {
			boolean ended = statuses.current().isTerminal();
			cursor.reopened();
			try {
				BytesLimitTerminateTimeTailPrettyLoggable stamped = client.pods().inNamespace(namespace).withName(spec.name())
						.inContainer(PodTemplate.CONTAINER).usingTimestamps();
				Loggable from = cursor.since() == null ? stamped : stamped.sinceTime(cursor.since());
				if (ended) {
					// The pod has ended: what its stream had not delivered yet, then the end.
					String rest = from.getLog();
					for (String line : rest.isEmpty() ? new String[0] : rest.split("\r?\n")) {
						deliver(cursor, line, sink);
					}
					sink.complete();
					return;
				}
				try (LogWatch watch = from.watchLog()) {
					open.set(watch);
					if (sink.isCancelled()) {
						return;
					}
					BufferedReader lines = new BufferedReader(new InputStreamReader(watch.getOutput(), StandardCharsets.UTF_8));
					String line;
					while (!sink.isCancelled() && (line = lines.readLine()) != null) {
						if (deliver(cursor, line, sink)) {
							failures = 0;
						}
					}
				}
			}
			catch (KubernetesClientException gone) {
				if (ended && gone.getCode() == 404) {
					// Deleted once it ended (its runtime closing, say): its output went with it.
					sink.complete();
					return;
				}
				if (failed(sink, ++failures, KubernetesBackend.describe(gone), gone)) {
					return;
				}
			}
			catch (IOException | RuntimeException e) {
				// A transport failure (fabric8 wraps it in a CompletionException), or an error body instead of a log.
				if (failed(sink, ++failures, e.getCause() != null && e instanceof java.util.concurrent.CompletionException
						? e.getCause().toString() : e.getMessage(), e)) {
					return;
				}
			}
			// The stream ended: the container has (its pod ends soon after), or the connection broke and the pod goes on.
			try {
				onTerminal().timeout(FOLLOW_END_WAIT, Mono.empty()).block();
			}
			catch (RuntimeException interrupted) {
				if (!sink.isCancelled()) {
					sink.error(new FiberException("stopped following the logs of pod " + spec.name() + ": " + interrupted, interrupted));
				}
				return;
			}
		}
	}

	/** Emits the line unless it was delivered already; whether it was emitted. */
	private static boolean deliver(LogCursor cursor, String stamped, FluxSink<String> sink) {
		String text = cursor.accept(stamped);
		if (text != null) {
			sink.next(text);
			return true;
		}
		return false;
	}

	/** Counts a failed attempt; after too many in a row, ends the stream with an error naming the pod. */
	private boolean failed(FluxSink<String> sink, int failures, String why, Throwable cause) {
		if (sink.isCancelled()) {
			return true;
		}
		if (failures >= FOLLOW_ATTEMPTS) {
			sink.error(new FiberException("cannot follow the logs of pod " + spec.name() + " in namespace " + namespace + ": " + why,
					cause));
			return true;
		}
		return false;
	}

	private static void closeQuietly(LogWatch watch) {
		if (watch != null) {
			watch.close();
		}
	}

	@Override
	public String toString() {
		return "KubernetesJob[" + namespace + "/" + spec.name() + ", " + statuses.current().phase() + "]";
	}
}
