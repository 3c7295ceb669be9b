package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.Arrays;
import java.util.OptionalLong;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
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

	private final JobSpec spec;
	private final String namespace;
	private final KubernetesClient client;
	private final Duration grace;
	private final java.util.function.BooleanSupplier backendClosed;
	private final JobStatusFeed statuses = new JobStatusFeed(new JobStatus(JobStatus.Phase.UNSCHEDULED, null, "pod created"));

	KubernetesJob(JobSpec spec, String namespace, KubernetesClient client, Duration grace, java.util.function.BooleanSupplier backendClosed) {
		this.backendClosed = backendClosed;
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
	void gone(@Nullable Pod lastSeen) {
		advance(lastSeen == null ? new JobStatus(JobStatus.Phase.FAILED, PodStatuses.NO_EXIT_CODE, "the pod was deleted")
				: PodStatuses.deleted(lastSeen));
	}

	/** The pod could not be created. */
	void refused(String why) {
		advance(new JobStatus(JobStatus.Phase.FAILED, PodStatuses.NO_EXIT_CODE, why));
	}

	private synchronized void advance(JobStatus next) {
		// A running pod whose node stops reporting (phase Unknown) has not gone back to waiting.
		if (next.phase().isWaiting() && statuses.current().phase() == JobStatus.Phase.RUNNING) {
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
		return terminate(grace);
	}

	/** {@link #terminate()} with {@code grace} as the pod's deletion grace period, rounded up to whole seconds. */
	@Override
	public Mono<Void> terminate(Duration grace) {
		Job.checkGrace(grace);
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
				.flatMapIterable(KubernetesJob::lines);
	}

	/** A log's lines: split at each {@code \n} (dropping a CRLF's {@code \r}); no line after a final newline. */
	static java.util.List<String> lines(String text) {
		java.util.List<String> lines = new java.util.ArrayList<>(Arrays.asList(text.split("\n", -1)));
		if (lines.get(lines.size() - 1).isEmpty()) {
			lines.remove(lines.size() - 1);
		}
		lines.replaceAll(PodLogFollower::withoutReturn);
		return lines;
	}

	/**
	 * The container's output as it is written, once the pod runs ({@link PodLogFollower}); a pod that ended
	 * before it was seen running hands over its output whole.
	 */
	@Override
	public Flux<String> follow() {
		return statuses().filter(s -> s.phase() == JobStatus.Phase.RUNNING || s.isTerminal()).next()
				.flatMapMany(seen -> seen.isTerminal() ? logs()
						: new PodLogFollower(client, namespace, spec.name(), statuses::current, onTerminal(), backendClosed).lines());
	}

	@Override
	public String toString() {
		return "KubernetesJob[" + namespace + "/" + spec.name() + ", " + statuses.current().phase() + "]";
	}
}
