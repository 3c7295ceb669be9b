package io.fiberjvm.it;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.fiberjvm.RemoteException;
import io.fiberjvm.examples.sgd.DataParallelSgd;
import io.fiberjvm.examples.sgd.StepReport;
import io.fiberjvm.queue.FiberQueue;
import io.fiberjvm.ring.ReduceOp;
import io.fiberjvm.ring.RingFailedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Rings of real member JVMs: every collective at several sizes, failures, and data-parallel SGD. */
class RingTest extends FiberPerTest {

	private static final Duration LONG = Duration.ofSeconds(180);

	/** Rank r's array for the all-reduce tests: element i is r * 100 + i. */
	static double[] doubles(int rank, int length) {
		return IntStream.range(0, length).mapToDouble(i -> rank * 100 + i).toArray();
	}

	static float[] floats(int rank, int length) {
		float[] values = new float[length];
		for (int i = 0; i < length; i++) {
			values[i] = rank + i;
		}
		return values;
	}

	private static final int[] LENGTHS = {10, 7, 1, 0, 100_003, 400_003};

	/** A list of about 1.6 MB of text. */
	private static List<String> words() {
		return IntStream.range(0, 50_000).mapToObj(i -> "word number " + i + " of fifty thousand")
				.collect(Collectors.toCollection(ArrayList::new));
	}

	@ParameterizedTest(name = "{0} members")
	@ValueSource(ints = {1, 2, 3, 5})
	void everyCollectiveGivesEveryMemberTheSameRightAnswer(int size) {
		FiberQueue<String> reports = fiber.queue(String.class, 1024);
		fiber.ring(size).name("collectives").initializer(ring -> reports.put(ring.rank() + " init").block()).run(ring -> {
			int r = ring.rank();
			reports.put(r + " env " + System.getenv("RANK") + "/" + System.getenv("WORLD_SIZE") + " "
					+ ring.environment().get("RANK") + "/" + ring.environment().get("WORLD_SIZE") + " neighbours "
					+ ring.left() + "," + ring.right() + " master " + ring.masterAddress().equals(
							io.fiberjvm.transport.Endpoint.parse(ring.environment().get("MASTER_ADDR") + ":" + ring.masterAddress().port()))).block();
			ring.barrier().block();
			reports.put(r + " broadcast " + ring.broadcast(r == 0 ? "from rank 0 of " + ring.size() : null).block()).block();
			// Over 1 MiB and no array: its bytes arrive, then are decoded off the connection's thread.
			List<String> words = ring.broadcast(r == 0 ? words() : null).block();
			reports.put(r + " words " + words.size() + " " + words.hashCode()).block();
			// Lengths that split evenly, unevenly, into fewer elements than members, and into none; and into chunks
			// under 512 KiB, written where the transport sends from, and over it, sent from arrays of their own.
			for (int length : LENGTHS) {
				double[] sum = ring.allReduce(doubles(r, length), ReduceOp.SUM).block();
				reports.put(r + " sum " + length + " " + Arrays.hashCode(sum) + " " + (length > 0 ? sum[length - 1] : -1)).block();
			}
			float[] mean = ring.allReduce(floats(r, 1001), ReduceOp.MEAN).block();
			reports.put(r + " mean " + Arrays.toString(Arrays.copyOf(mean, 3)) + " " + mean[1000]).block();
			List<Integer> gathered = ring.gather(r * r).block();
			reports.put(r + " gather " + gathered).block();
			ring.barrier().block();
		}).block(LONG);

		List<String> lines = reports.receive().take(size * 12L).collectList().block(LONG);
		Map<Integer, List<String>> byRank = new TreeMap<>(lines.stream().collect(Collectors.groupingBy(
				line -> Integer.parseInt(line.substring(0, line.indexOf(' '))), Collectors.mapping(l -> l.substring(l.indexOf(' ') + 1),
						Collectors.toList()))));
		assertThat(byRank).hasSize(size);
		for (int r = 0; r < size; r++) {
			List<String> expected = new ArrayList<>();
			expected.add("init");
			expected.add("env " + r + "/" + size + " " + r + "/" + size + " neighbours " + ((r + size - 1) % size) + "," + ((r + 1) % size)
					+ " master true");
			expected.add("broadcast from rank 0 of " + size);
			expected.add("words " + words().size() + " " + words().hashCode());
			for (int length : LENGTHS) {
				double[] sum = new double[length];
				for (int member = 0; member < size; member++) {
					double[] mine = doubles(member, length);
					for (int i = 0; i < length; i++) {
						sum[i] += mine[i];
					}
				}
				expected.add("sum " + length + " " + Arrays.hashCode(sum) + " " + (length > 0 ? sum[length - 1] : -1.0));
			}
			float half = (size - 1) / 2f;
			expected.add("mean " + Arrays.toString(new float[] {half, half + 1, half + 2}) + " " + (half + 1000));
			expected.add("gather " + (r == 0 ? IntStream.range(0, size).map(i -> i * i).boxed().toList() : List.of()));
			// In the order each member did them.
			assertThat(byRank.get(r)).as("rank %d", r).containsExactlyElementsOf(expected);
		}
	}

	@Test
	void aNullBroadcastIsEmptyEverywhereAndACollectiveSubscribedAgainDoesNotRunAgain() {
		FiberQueue<String> reports = fiber.queue(String.class, 16);
		fiber.ring(3).name("edges").run(ring -> {
			String nothing = ring.broadcast((String) null).block();
			var mean = ring.allReduce(new double[] {ring.rank()}, ReduceOp.MEAN);
			double first = mean.block()[0];
			double again = mean.block()[0];
			reports.put(ring.rank() + " " + nothing + " " + first + " " + again).block();
		}).block(LONG);
		assertThat(reports.receive().take(3).collectList().block(LONG)).containsExactlyInAnyOrder("0 null 1.0 1.0", "1 null 1.0 1.0",
				"2 null 1.0 1.0");
	}

	@Test
	void membersThatCallDifferentCollectivesFailWithinTheCollectiveTimeout() {
		// Rank 1 skips the all-reduce and waits for the others to finish: rank 2 waits for it in vain.
		assertThatThrownBy(() -> fiber.ring(3).name("mismatch").collectiveTimeout(Duration.ofSeconds(3)).run(ring -> {
			if (ring.rank() != 1) {
				ring.allReduce(new double[1000], ReduceOp.SUM).block();
			}
		}).block(LONG)).isInstanceOfSatisfying(RingFailedException.class, e -> assertThat(e).rootCause()
				.hasMessageContaining("waited 3000 ms").hasMessageContaining("same collectives in the same order"));
		await().atMost(LONG).until(() -> fiber.liveProcesses().isEmpty());
	}

	@Test
	void aMemberThatThrowsFailsTheRingWithItsRankAndTraceAndTheOthersStop() {
		assertThatThrownBy(() -> fiber.ring(3).name("thrower").run(ring -> {
			if (ring.rank() == 2) {
				throw new IllegalStateException("bad shard on rank 2");
			}
			// The others wait in a collective rank 2 never joins.
			ring.barrier().block();
		}).block(LONG)).isInstanceOfSatisfying(RingFailedException.class, e -> {
			assertThat(e.rank()).isEqualTo(2);
			assertThat(e.getMessage()).contains("ring member 2 of 3");
			assertThat(e).hasRootCauseInstanceOf(RemoteException.class).rootCause().hasMessageContaining("bad shard on rank 2");
		});
		await().atMost(LONG).until(() -> fiber.liveProcesses().isEmpty());
	}

	@Test
	void aMemberKilledMidAllReduceFailsTheRingAndNothingHangs() {
		FiberQueue<String> started = fiber.queue(String.class);
		var run = fiber.ring(3).name("killed").run(ring -> {
			double[] big = doubles(ring.rank(), 2_000_000);
			for (int i = 0; ; i++) {
				if (ring.rank() == 1 && i == 3) {
					// Into the all-reduce, then gone, as by SIGKILL: its neighbours are left mid-exchange.
					ring.allReduce(big, ReduceOp.SUM).subscribe();
					started.put("killing").block();
					Runtime.getRuntime().halt(137);
				}
				ring.allReduce(big, ReduceOp.SUM).block();
			}
		});
		assertThatThrownBy(() -> run.block(LONG)).isInstanceOfSatisfying(RingFailedException.class,
				e -> assertThat(e.rank()).isEqualTo(1));
		assertThat(started.receive().blockFirst(LONG)).isEqualTo("killing");
		await().atMost(LONG).until(() -> fiber.liveProcesses().isEmpty());
	}

	@Test
	void dataParallelSgdLearnsTheCoefficientsWithTheSameModelOnEveryMember() throws Exception {
		int members = 4;
		int steps = 150;
		FiberQueue<StepReport> reports = fiber.queue(StepReport.class, 64);
		// Read while training: the queue holds 64, and members wait while it is full.
		var collected = reports.receive().take((long) members * steps).collectList().toFuture();
		DataParallelSgd.train(fiber, members, 2000, steps, reports).block(LONG);
		List<StepReport> all = collected.get(LONG.toSeconds(), TimeUnit.SECONDS);
		Map<Integer, List<StepReport>> bySteps = all.stream().collect(Collectors.groupingBy(StepReport::step));
		assertThat(bySteps).hasSize(steps);
		bySteps.forEach((step, reportsOfStep) -> {
			assertThat(reportsOfStep).as("step %d", step).hasSize(members);
			// Identical, bit for bit: every member applied the same all-reduced gradient.
			assertThat(reportsOfStep.stream().map(r -> Arrays.toString(r.model())).distinct()).as("step %d", step).hasSize(1);
		});
		double[] learned = bySteps.get(steps - 1).get(0).model();
		for (int i = 0; i < learned.length; i++) {
			assertThat(learned[i]).as("coefficient %d", i).isCloseTo(DataParallelSgd.TRUTH[i], org.assertj.core.data.Offset.offset(0.02));
		}
		assertThat(bySteps.get(steps - 1).get(0).loss()).isLessThan(bySteps.get(0).get(0).loss());
	}
}
