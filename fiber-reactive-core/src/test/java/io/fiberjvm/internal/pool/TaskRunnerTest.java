package io.fiberjvm.internal.pool;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import io.fiberjvm.FiberFunction;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.transport.Outbound;

import static org.assertj.core.api.Assertions.assertThat;

/** A worker's runner writes a large result into the array of the last one once the transport let that go. */
class TaskRunnerTest {

	private static final int FRAME = 16 << 20;

	private final TaskCodec pool = new TaskCodec(new ShippedValues(List.of()), FRAME);
	private final TaskCodec codec = new TaskCodec(new ShippedValues(List.of()), FRAME);
	private final List<Outbound> sent = new CopyOnWriteArrayList<>();
	private final TaskRunner runner = new TaskRunner(codec, new TaskStreamer(codec, (route, frames) -> Flux.empty(), "streams/"),
			sent::add, FRAME);

	@Test
	void aLargeResultsArrayIsWrittenOverOnlyOnceTheTransportLetTheLastFrameGo() {
		FiberFunction<double[], double[]> twice = v -> {
			double[] out = v.clone();
			for (int i = 0; i < out.length; i++) {
				out[i] *= 2;
			}
			return out;
		};
		ShippedFunction shipped = pool.ship(twice, twice.getClass());
		double[] value = new double[300_000];
		value[7] = 3;
		runner.run(new ChunkFrame(shipped.id, shipped.bytes, List.of(shipped.allow), List.of(new ChunkFrame.Task(1, null, value))));
		runner.run(new ChunkFrame(shipped.id, null, List.of(), List.of(new ChunkFrame.Task(2, null, value))));
		assertThat(sent).hasSize(2);
		byte[] first = sent.get(0).toArray();
		assertThat(sent.get(1).toArray()).as("the first frame is not let go yet").isNotSameAs(first);

		sent.get(0).released();
		runner.run(new ChunkFrame(shipped.id, null, List.of(), List.of(new ChunkFrame.Task(3, null, value))));
		byte[] third = sent.get(2).toArray();
		assertThat(third).as("written into the array let go").isSameAs(first);
		ResultsFrame results = ResultsFrame.decode(third);
		assertThat(results.answers()).singleElement().satisfies(answer -> {
			assertThat(answer.id()).isEqualTo(3);
			assertThat((double[]) answer.result(codec.values(), "the result")).containsExactly(twice.apply(value));
		});
	}
}
