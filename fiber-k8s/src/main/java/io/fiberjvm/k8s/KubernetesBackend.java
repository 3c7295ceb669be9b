package io.fiberjvm.k8s;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberException;
import io.fiberjvm.backend.Backend;
import io.fiberjvm.backend.Job;
import io.fiberjvm.backend.JobJava;
import io.fiberjvm.backend.JobSpec;

/**
 * Runs each job as a pod (see {@link PodTemplate}) in one namespace.
 *
 * <p>One informer on this backend's pods (selected by the {@value #BACKEND_LABEL} label) drives every
 * job's status: nothing is polled per pod. The run's secret goes into a Kubernetes Secret made with the
 * first pod and read by pods through a {@code secretKeyRef}. Terminating a job deletes its pod with the
 * grace period; closing the backend deletes every pod it made, the Secret and the run's status
 * ConfigMap ({@link RunStatusMap}). When this runtime runs in a pod ({@code pod-name}), that pod owns the
 * jobs' pods, the Secret and the ConfigMap, so the cluster's garbage collector removes them if the
 * runtime dies without closing.
 */
public final class KubernetesBackend implements Backend {

	/** Names the backend instance that made a pod: the informer's selector. */
	static final String BACKEND_LABEL = "fiber-backend";

	private final java.util.function.Supplier<KubernetesClient> connect;
	private volatile @Nullable KubernetesClient client;
	private final boolean ownsClient;
	private final KubernetesSettings settings;
	private final String instance = UUID.randomUUID().toString();
	private final Map<String, KubernetesJob> jobs = new ConcurrentHashMap<>();
	private final Map<String, Pod> lastSeen = new ConcurrentHashMap<>();
	private final Map<String, Mono<String>> secrets = new ConcurrentHashMap<>();
	private final java.util.Set<String> createdSecrets = ConcurrentHashMap.newKeySet();
	private final Mono<Pod> parent;
	private @Nullable SharedIndexInformer<Pod> informer;
	/** Written under the lock; read without it by jobs' log followers, which end quietly once it is set. */
	private volatile boolean closed;
	private final RunStatusPublisher statusMap;
	private volatile boolean madePods;

	/**
	 * A backend over {@code client}.
	 *
	 * @param ownsClient whether closing the backend closes the client
	 */
	public KubernetesBackend(KubernetesClient client, boolean ownsClient, KubernetesSettings settings) {
		this(() -> client, ownsClient, settings);
		Objects.requireNonNull(client, "client");
	}

	/**
	 * A backend that makes its own client from {@code config} when it first needs one: a job-backed
	 * process opens a runtime whose backend it seldom uses, and a client with its HTTP machinery is
	 * costly to start.
	 */
	KubernetesBackend(io.fabric8.kubernetes.client.Config config, KubernetesSettings settings) {
		this(() -> new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build(), true, settings);
	}

	private KubernetesBackend(java.util.function.Supplier<KubernetesClient> connect, boolean ownsClient, KubernetesSettings settings) {
		this.connect = connect;
		this.ownsClient = ownsClient;
		this.settings = Objects.requireNonNull(settings, "settings");
		// A failed read is tried again by the next job, not remembered.
		this.parent = Mono.fromCallable(this::readParent).subscribeOn(Schedulers.boundedElastic())
				.cache(pod -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO, () -> Duration.ZERO);
		this.statusMap = new RunStatusPublisher(this::client, this.settings.namespace(),
				() -> ownerOrNull(parent.block(Duration.ofSeconds(30))));
	}

	/** The client, made on first use. */
	private KubernetesClient client() {
		KubernetesClient made = client;
		if (made == null) {
			synchronized (connect) {
				made = client;
				if (made == null) {
					made = connect.get();
					client = made;
				}
			}
		}
		return made;
	}

	@Override
	public String name() {
		return "kubernetes";
	}

	@Override
	public boolean runsJobsOnThisMachine() {
		return false;
	}

	@Override
	public JobJava jobJava(JobJava parents) {
		return settings.jobJava(parents);
	}

	/** The namespace pods go to. */
	public String namespace() {
		return settings.namespace();
	}

	@Override
	public Mono<Job> create(JobSpec spec) {
		Objects.requireNonNull(spec, "spec");
		return parent.flatMap(owner -> secretFor(spec, owner).map(secretName -> launch(spec, owner, secretName)))
				.subscribeOn(Schedulers.boundedElastic());
	}

	private Job launch(JobSpec spec, Pod owner, String secretName) {
		JobSpec labelled = spec.withLabel(BACKEND_LABEL, instance);
		if (labelled.volumes().isEmpty()) {
			for (String claim : settings.volumes()) {
				labelled = labelled.withVolume(claim);
			}
		}
		Pod pod = PodTemplate.podFor(labelled, new PodTemplate.Settings(settings.namespace(),
				settings.image().isEmpty() ? null : settings.image(), secretName, ownerOrNull(owner)));
		KubernetesJob job = new KubernetesJob(labelled, settings.namespace(), client(), settings.grace(), () -> closed);
		synchronized (this) {
			if (closed) {
				throw new FiberException("the Kubernetes backend is closed; job " + spec.name() + " was not started");
			}
			startInformer();
			// Known before it exists, so no event about it is missed.
			jobs.put(spec.name(), job);
		}
		try {
			madePods = true;
			client().pods().inNamespace(settings.namespace()).resource(pod).create();
		}
		catch (KubernetesClientException e) {
			jobs.remove(spec.name());
			throw new FiberException("the Kubernetes API refused pod " + spec.name() + " in namespace "
					+ settings.namespace() + ": " + describe(e), e);
		}
		boolean closedMeanwhile;
		synchronized (this) {
			closedMeanwhile = closed;
		}
		if (closedMeanwhile) {
			// close() may have deleted the backend's pods before this one existed.
			deleteQuietly(spec.name(), 0);
			throw new FiberException("the Kubernetes backend was closed while job " + spec.name() + " started");
		}
		job.onTerminal().subscribe(status -> {
			jobs.remove(spec.name());
			lastSeen.remove(spec.name());
		});
		return job;
	}

	/**
	 * Keeps the run's status in its ConfigMap ({@link RunStatusMap}) once this backend has made pods; the
	 * first call creates it, later ones replace its data. Nothing after close, which deletes it.
	 */
	@Override
	public void publishStatus(io.fiberjvm.backend.RunStatus status) {
		Objects.requireNonNull(status, "status");
		// close() sets closed before it deletes the ConfigMap, which waits for a publish under way.
		statusMap.publish(status, () -> !closed && madePods);
	}

	/** Creates the run's Secret once per run: the first pod of a run waits for it. */
	private Mono<String> secretFor(JobSpec spec, Pod owner) {
		String runId = spec.labels().get("fiber-run");
		String secret = spec.environment().get(JobSpec.SECRET_ENV);
		if (runId == null || secret == null) {
			// A job outside a run (no secret to hand over) still gets a reference that resolves.
			runId = runId != null ? runId : "jobs-" + instance.substring(0, 8);
			secret = secret != null ? secret : "";
		}
		String id = runId;
		String value = secret;
		return secrets.computeIfAbsent(id, key -> Mono.fromCallable(() -> {
			try {
				client().secrets().inNamespace(settings.namespace())
						.resource(RunSecret.of(settings.namespace(), id, value, ownerOrNull(owner)))
						.create();
			}
			catch (KubernetesClientException e) {
				if (e.getCode() == 409) {
					// Another run's, or one left by a run that died outside the cluster: never reuse or delete it.
					throw new FiberException("a Secret named " + RunSecret.name(id) + " already exists in namespace "
							+ settings.namespace() + " but this run did not make it (left by an earlier run?); delete it to go on", e);
				}
				throw new FiberException("the Kubernetes API refused the run's Secret " + RunSecret.name(id)
						+ " in namespace " + settings.namespace() + ": " + describe(e), e);
			}
			createdSecrets.add(RunSecret.name(id));
			return RunSecret.name(id);
		}).subscribeOn(Schedulers.boundedElastic()).cache(name -> Duration.ofMillis(Long.MAX_VALUE), error -> Duration.ZERO,
				() -> Duration.ZERO));
	}

	/** The parent pod to own what this run makes, or null outside the cluster (where the parent is an empty pod). */
	private static @Nullable Pod ownerOrNull(@Nullable Pod parent) {
		return parent == null || parent.getMetadata() == null ? null : parent;
	}

	/** The pod this runtime runs in, or an empty pod when it runs outside the cluster. */
	private Pod readParent() {
		if (settings.podName().isEmpty()) {
			return new Pod();
		}
		Pod pod;
		try {
			pod = client().pods().inNamespace(settings.namespace()).withName(settings.podName()).get();
		}
		catch (KubernetesClientException e) {
			throw new FiberException("cannot read this runtime's own pod " + settings.podName() + " in namespace "
					+ settings.namespace() + ": " + describe(e), e);
		}
		if (pod == null) {
			throw new FiberException("configuration key 'pod-name' names pod '" + settings.podName()
					+ "', which does not exist in namespace " + settings.namespace());
		}
		return pod;
	}

	private void startInformer() {
		if (informer != null) {
			return;
		}
		informer = client().pods().inNamespace(settings.namespace()).withLabel(BACKEND_LABEL, instance)
				.inform(new ResourceEventHandler<>() {
					@Override
					public void onAdd(Pod pod) {
						seen(pod);
					}

					@Override
					public void onUpdate(Pod before, Pod pod) {
						seen(pod);
					}

					@Override
					public void onDelete(Pod pod, boolean finalStateUnknown) {
						KubernetesJob job = jobs.get(pod.getMetadata().getName());
						if (job != null) {
							job.gone(pod);
						}
					}
				}, 0);
		// A watch that stops for good leaves no job able to end: say so to each of them.
		informer.stopped().whenComplete((done, error) -> {
			String why = "the watch on pods stopped" + (error != null ? ": " + error.getMessage() : "");
			jobs.values().forEach(job -> job.refused(why));
		});
	}

	private void seen(Pod pod) {
		String name = pod.getMetadata().getName();
		lastSeen.put(name, pod);
		KubernetesJob job = jobs.get(name);
		if (job == null) {
			return;
		}
		job.observe(pod);
		String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
		if (job.status().isTerminal() && !"Succeeded".equals(phase) && !"Failed".equals(phase)
				&& pod.getMetadata().getDeletionTimestamp() == null) {
			// Given up on (it cannot start): its pod must not start later as an orphan.
			Schedulers.boundedElastic().schedule(() -> deleteQuietly(name, 0));
		}
	}

	private void deleteQuietly(String pod, long graceSeconds) {
		try {
			client().pods().inNamespace(settings.namespace()).withName(pod).withGracePeriod(graceSeconds).delete();
		}
		catch (KubernetesClientException e) {
			// gone already, or the cluster is; its owner reference (in a cluster) still ties it to its parent
		}
	}

	/** Jobs not ended yet. */
	public int liveJobs() {
		return jobs.size();
	}

	/**
	 * Deletes every pod this backend made, and the Secrets it made; pods are deleted at once, without a
	 * grace period. Fails, after trying each, naming what could not be deleted.
	 */
	@Override
	public void close() {
		synchronized (this) {
			if (closed) {
				return;
			}
			closed = true;
		}
		List<String> failures = new java.util.ArrayList<>();
		try {
			if (madePods) {
				client().pods().inNamespace(settings.namespace()).withLabel(BACKEND_LABEL, instance).withGracePeriod(0).delete();
			}
		}
		catch (KubernetesClientException e) {
			failures.add("its pods (label " + BACKEND_LABEL + "=" + instance + "): " + describe(e));
		}
		String statusFailure = statusMap.delete();
		if (statusFailure != null) {
			failures.add(statusFailure);
		}
		for (String secret : createdSecrets) {
			try {
				client().secrets().inNamespace(settings.namespace()).withName(secret).delete();
			}
			catch (KubernetesClientException e) {
				failures.add("Secret " + secret + ": " + describe(e));
			}
		}
		jobs.values().forEach(job -> job.gone(lastSeen.get(job.id())));
		if (informer != null) {
			informer.stop();
		}
		if (ownsClient && client != null) {
			client.close();
		}
		if (!failures.isEmpty()) {
			// Pods and the Secret owned by a parent pod go with it; without one, they are left for a person.
			throw new FiberException("the Kubernetes backend could not delete, in namespace " + settings.namespace() + ": "
					+ String.join("; ", failures));
		}
	}

	/** The API server's own words for a refusal. */
	static String describe(KubernetesClientException e) {
		if (e.getStatus() != null && e.getStatus().getMessage() != null) {
			return e.getStatus().getMessage() + " (HTTP " + e.getCode() + ")";
		}
		return String.valueOf(e.getMessage());
	}

	@Override
	public String toString() {
		return "KubernetesBackend[" + settings.namespace() + ", " + instance + "]";
	}
}
