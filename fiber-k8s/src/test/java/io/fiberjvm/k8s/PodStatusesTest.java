package io.fiberjvm.k8s;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import io.fiberjvm.backend.JobStatus;

import static org.assertj.core.api.Assertions.assertThat;

/** A job's status read from its pod, for each state a pod passes through. */
class PodStatusesTest {

	private static PodBuilder pod(String phase) {
		return new PodBuilder().withNewMetadata().withName("w-1").endMetadata().withNewStatus().withPhase(phase).endStatus();
	}

	@Test
	void aNewPodIsUnscheduledAPlacedOneIsPendingAndARunningOneRuns() {
		assertThat(PodStatuses.of(new PodBuilder().withNewMetadata().withName("w").endMetadata().build()).phase())
				.isEqualTo(JobStatus.Phase.UNSCHEDULED);
		assertThat(PodStatuses.of(pod("Pending").build()).phase()).isEqualTo(JobStatus.Phase.UNSCHEDULED);
		assertThat(PodStatuses.of(pod("Pending").withNewSpec().withNodeName("n1").endSpec().build()).phase())
				.isEqualTo(JobStatus.Phase.PENDING);
		assertThat(PodStatuses.of(pod("Running").build()).phase()).isEqualTo(JobStatus.Phase.RUNNING);
	}

	@Test
	void theExitCodeComesFromTheWorkerContainer() {
		Pod failed = pod("Failed").editStatus()
				.addNewContainerStatus().withName("sidecar").withNewState().withNewTerminated().withExitCode(0).endTerminated().endState().endContainerStatus()
				.addNewContainerStatus().withName(PodTemplate.CONTAINER).withNewState().withNewTerminated().withExitCode(75)
				.withReason("Error").endTerminated().endState().endContainerStatus()
				.endStatus().build();
		JobStatus status = PodStatuses.of(failed);
		assertThat(status.phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(status.exitCode()).isEqualTo(75);
		assertThat(status.message()).isEqualTo("Error");
		Pod done = pod("Succeeded").editStatus().addNewContainerStatus().withName(PodTemplate.CONTAINER).withNewState()
				.withNewTerminated().withExitCode(0).endTerminated().endState().endContainerStatus().endStatus().build();
		assertThat(PodStatuses.of(done)).isEqualTo(JobStatus.exited(0, ""));
	}

	@Test
	void aPodThatCanNeverStartFailsAtOnceWithTheReason() {
		Pod stuck = pod("Pending").editStatus().addNewContainerStatus().withName(PodTemplate.CONTAINER).withNewState()
				.withNewWaiting().withReason("ImagePullBackOff").withMessage("no such image").endWaiting().endState()
				.endContainerStatus().endStatus().build();
		JobStatus status = PodStatuses.of(stuck);
		assertThat(status.phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(status.message()).contains("cannot start").contains("ImagePullBackOff").contains("no such image");
		Pod creating = pod("Pending").withNewSpec().withNodeName("n1").endSpec().editStatus().addNewContainerStatus().withName(PodTemplate.CONTAINER).withNewState()
				.withNewWaiting().withReason("ContainerCreating").endWaiting().endState().endContainerStatus().endStatus().build();
		assertThat(PodStatuses.of(creating).phase()).isEqualTo(JobStatus.Phase.PENDING);
	}

	@Test
	void aPodDeletedBeforeItEndedFailed() {
		JobStatus status = PodStatuses.deleted(pod("Running").build());
		assertThat(status.phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(status.message()).contains("deleted");
		assertThat(PodStatuses.deleted(pod("Succeeded").build()).phase()).isEqualTo(JobStatus.Phase.SUCCEEDED);
	}

	@Test
	void aContainerOomKilledAtItsLimitIsKilledForMemoryWithTheLimit() {
		Pod killed = pod("Failed").editOrNewSpec().addNewContainer().withName(PodTemplate.CONTAINER)
				.withResources(PodResources.of(new io.fiberjvm.ResourceSpec(0, 64L * 1024 * 1024, 0))).endContainer().endSpec()
				.editStatus().addNewContainerStatus().withName(PodTemplate.CONTAINER).withNewState().withNewTerminated()
				.withExitCode(137).withReason("OOMKilled").endTerminated().endState().endContainerStatus().endStatus().build();
		JobStatus status = PodStatuses.of(killed);
		assertThat(status.phase()).isEqualTo(JobStatus.Phase.FAILED);
		assertThat(status.exitCode()).isEqualTo(137);
		assertThat(status.killedForMemory()).isTrue();
		assertThat(status.message()).isEqualTo("killed for memory (OOMKilled) at its limit of " + io.fiberjvm.internal.DataSize.format(64L * 1024 * 1024));
		Pod error = pod("Failed").editStatus().addNewContainerStatus().withName(PodTemplate.CONTAINER).withNewState()
				.withNewTerminated().withExitCode(137).withReason("Error").endTerminated().endState().endContainerStatus()
				.endStatus().build();
		assertThat(PodStatuses.of(error).killedForMemory()).isFalse();
	}

	@Test
	void aPodTheSchedulerCannotPlaceIsUnscheduledWithTheSchedulersReason() {
		Pod waiting = pod("Pending").editStatus().addNewCondition().withType("PodScheduled").withStatus("False")
				.withReason("Unschedulable").withMessage("0/1 nodes are available: 1 Insufficient cpu.").endCondition().endStatus().build();
		JobStatus status = PodStatuses.of(waiting);
		assertThat(status.phase()).isEqualTo(JobStatus.Phase.UNSCHEDULED);
		assertThat(status.phase().isWaiting()).isTrue();
		assertThat(status.message()).isEqualTo("0/1 nodes are available: 1 Insufficient cpu.");
	}
}
