package io.fiberjvm.k8s;

import java.util.List;
import java.util.Set;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStateTerminated;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import org.jspecify.annotations.Nullable;

import io.fiberjvm.backend.JobStatus;
import io.fiberjvm.internal.DataSize;

/**
 * A job's status read from its pod, as a watch delivers it: the phase, and once the worker container
 * (or a master pod's only container) has terminated its exit code. A pod that can never start (its image cannot be pulled, its command
 * cannot run, its spec is refused) is FAILED at once, with the reason, rather than PENDING forever.
 */
public final class PodStatuses {

	/** Waiting reasons that mean the container will not start without a change to the pod. */
	static final Set<String> NEVER_STARTS = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName",
			"CreateContainerConfigError", "CreateContainerError", "RunContainerError");

	/** The exit code given to a pod that failed without a container exit code (deleted, evicted, never started). */
	static final int NO_EXIT_CODE = 137;

	/** The reason a container's state gives when the kernel killed it at its cgroup's memory limit. */
	static final String OOM_KILLED = "OOMKilled";

	private PodStatuses() {
	}

	/** The memory limit of {@code status}'s container in {@code pod}'s spec, as given there; "none" without one. */
	private static String memoryLimit(Pod pod, @Nullable ContainerStatus status) {
		if (pod.getSpec() == null || status == null) {
			return "none";
		}
		return pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(status.getName())).findFirst()
				.map(Container::getResources).map(ResourceRequirements::getLimits).map(limits -> limits.get("memory"))
				.map(limit -> DataSize.format(Quantity.getAmountInBytes(limit).longValue())).orElse("none");
	}

	/** The status a pod reads as now. */
	public static JobStatus of(Pod pod) {
		PodStatus status = pod.getStatus();
		String phase = status == null || status.getPhase() == null ? "Pending" : status.getPhase();
		ContainerStatus worker = worker(status);
		ContainerStateTerminated terminated = worker == null || worker.getState() == null ? null : worker.getState().getTerminated();
		if (terminated != null) {
			int code = terminated.getExitCode() == null ? NO_EXIT_CODE : terminated.getExitCode();
			if (OOM_KILLED.equals(terminated.getReason())) {
				return JobStatus.killedForMemory(code, "killed for memory (OOMKilled) at its limit of " + memoryLimit(pod, worker));
			}
			return JobStatus.exited(code, describe(terminated.getReason(), terminated.getMessage()));
		}
		ContainerStateWaiting waiting = worker == null || worker.getState() == null ? null : worker.getState().getWaiting();
		if (waiting != null && NEVER_STARTS.contains(waiting.getReason())) {
			return new JobStatus(JobStatus.Phase.FAILED, NO_EXIT_CODE,
					"the pod cannot start: " + describe(waiting.getReason(), waiting.getMessage()));
		}
		return switch (phase) {
			case "Running" -> new JobStatus(JobStatus.Phase.RUNNING, null, "");
			case "Succeeded" -> JobStatus.exited(0, "");
			case "Failed" -> new JobStatus(JobStatus.Phase.FAILED, NO_EXIT_CODE,
					describe(status.getReason(), status.getMessage()));
			default -> pod.getSpec() == null || pod.getSpec().getNodeName() == null
					? new JobStatus(JobStatus.Phase.UNSCHEDULED, null, unscheduledReason(status))
					: new JobStatus(JobStatus.Phase.PENDING, null, waiting != null ? describe(waiting.getReason(), waiting.getMessage()) : "");
		};
	}

	/** What the scheduler said of a pod it has not placed: "0/1 nodes are available: 1 Insufficient cpu." */
	private static String unscheduledReason(@Nullable PodStatus status) {
		if (status == null || status.getConditions() == null) {
			return "";
		}
		return status.getConditions().stream().filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
				.map(c -> c.getMessage() != null && !c.getMessage().isBlank() ? c.getMessage() : String.valueOf(c.getReason()))
				.findFirst().orElse("");
	}

	/** The status of a pod that was deleted before it ended. */
	static JobStatus deleted(Pod pod) {
		JobStatus last = of(pod);
		return last.isTerminal() ? last : new JobStatus(JobStatus.Phase.FAILED, NO_EXIT_CODE, "the pod was deleted");
	}

	private static @Nullable ContainerStatus worker(@Nullable PodStatus status) {
		if (status == null) {
			return null;
		}
		List<ContainerStatus> containers = status.getContainerStatuses();
		if (containers == null) {
			return null;
		}
		// A job's container is the worker; a master pod (fiber run) has one container of its own name.
		return containers.stream().filter(c -> PodTemplate.CONTAINER.equals(c.getName())).findFirst()
				.orElse(containers.size() == 1 ? containers.get(0) : null);
	}

	private static String describe(String reason, String message) {
		if (reason == null || reason.isBlank()) {
			return message == null ? "" : message;
		}
		return message == null || message.isBlank() ? reason : reason + ": " + message;
	}
}
