package io.fiberjvm.k8s;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import io.fiberjvm.backend.RunStatus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ConfigMap a run's status is kept in on Kubernetes, and what fiber ps reads back from it. */
class RunStatusMapTest {

	private static RunStatus status(int workers) {
		List<RunStatus.Worker> list = IntStream.range(0, workers)
				.mapToObj(i -> new RunStatus.Worker("crunch-w" + i, "crunch-" + (i / 32), "working")).toList();
		return new RunStatus("r1", 7, "kubernetes", "2026-11-23T05:00:00Z",
				List.of(new RunStatus.Process("crunch-0", "crunch-0-r1-x", -1, "running")),
				List.of(new RunStatus.Pool("crunch", workers, workers, workers, list)));
	}

	@Test
	void aStatusTravelsInAConfigMapLabelledAndOwnedByTheParentPod() {
		Pod parent = new PodBuilder().withNewMetadata().withName("master").withUid("u-1").endMetadata().build();
		ConfigMap map = RunStatusMap.of("ns", status(3), parent);
		assertThat(map.getMetadata().getName()).isEqualTo("fiber-status-r1");
		assertThat(map.getMetadata().getLabels()).containsEntry("fiber-run", "r1").containsEntry(RunStatusMap.LABEL, "true")
				.containsEntry("fiber-parent", "master");
		assertThat(map.getMetadata().getOwnerReferences()).singleElement().satisfies(owner -> assertThat(owner.getUid()).isEqualTo("u-1"));
		assertThat(RunStatusMap.read(map)).isEqualTo(status(3));
		assertThat(RunStatusMap.of("ns", status(3), null).getMetadata().getOwnerReferences()).isEmpty();
	}

	@Test
	void aStatusTooLongForOneObjectKeepsItsPoolsWithoutTheirWorkerLists() {
		ConfigMap map = RunStatusMap.of("ns", status(20_000), null);
		assertThat(map.getData().get(RunStatusMap.DATA_KEY).length()).isLessThan(RunStatusMap.LIMIT);
		assertThat(RunStatusMap.workersOmitted(map)).isTrue();
		assertThat(RunStatusMap.workersOmitted(RunStatusMap.of("ns", status(3), null))).isFalse();
		RunStatus read = RunStatusMap.read(map);
		assertThat(read.pools()).singleElement().satisfies(pool -> {
			assertThat(pool.target()).isEqualTo(20_000);
			assertThat(pool.workers()).isEmpty();
		});
	}

	@Test
	void aConfigMapWithoutAReadableStatusIsNamedInTheError() {
		ConfigMap empty = new ConfigMapBuilder().withNewMetadata().withName("fiber-status-x").endMetadata().build();
		assertThatThrownBy(() -> RunStatusMap.read(empty)).hasMessage("ConfigMap fiber-status-x holds no status.json");
		ConfigMap garbled = new ConfigMapBuilder().withNewMetadata().withName("fiber-status-y").endMetadata()
				.withData(Map.of(RunStatusMap.DATA_KEY, "{not json")).build();
		assertThatThrownBy(() -> RunStatusMap.read(garbled)).hasMessageStartingWith("ConfigMap fiber-status-y: not a run status");
	}
}
