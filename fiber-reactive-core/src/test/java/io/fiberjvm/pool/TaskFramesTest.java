package io.fiberjvm.pool;

import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TaskFramesTest {

	@Test
	void chunksAndResultsRoundTrip() {
		TaskFrames.Chunk chunk = new TaskFrames.Chunk(7, new byte[] {1, 2}, List.of("com.acme.*"),
				List.of(new TaskFrames.TaskBytes(1, new byte[] {9}), new TaskFrames.TaskBytes(2, null)));
		TaskFrames.Chunk back = TaskFrames.decodeChunk(TaskFrames.encode(chunk));
		assertThat(back.functionId()).isEqualTo(7);
		assertThat(back.function()).containsExactly(1, 2);
		assertThat(back.allow()).containsExactly("com.acme.*");
		assertThat(back.tasks()).hasSize(2);
		assertThat(back.tasks().get(0).arg()).containsExactly(9);
		assertThat(back.tasks().get(1).arg()).isNull();

		TaskFrames.Results results = new TaskFrames.Results(true, 1234, List.of(
				new TaskFrames.Answer(1, false, "com.acme.*", new byte[] {5}), new TaskFrames.Answer(2, true, null, new byte[] {6})));
		TaskFrames.Results read = TaskFrames.decodeResults(TaskFrames.encode(results));
		assertThat(read.lastOfChunk()).isTrue();
		assertThat(read.elapsedNanos()).isEqualTo(1234);
		assertThat(read.answers().get(0).allow()).isEqualTo("com.acme.*");
		assertThat(read.answers().get(1).failed()).isTrue();
		assertThat(read.answers().get(1).allow()).isNull();
	}

	@Test
	void malformedFramesAreRefusedWithWhatWasWrong() {
		byte[] good = TaskFrames.encode(new TaskFrames.Results(true, 1, List.of(new TaskFrames.Answer(1, false, null, new byte[10]))));
		assertThatThrownBy(() -> TaskFrames.decodeResults(Arrays.copyOf(good, good.length - 3)))
				.isInstanceOf(CodecException.class).hasMessageContaining("malformed result frame");
		byte[] longer = Arrays.copyOf(good, good.length + 1);
		assertThatThrownBy(() -> TaskFrames.decodeResults(longer)).isInstanceOf(CodecException.class).hasMessageContaining("left over");
		assertThatThrownBy(() -> TaskFrames.decodeChunk(new byte[] {0, 0, 0})).isInstanceOf(CodecException.class)
				.hasMessageContaining("malformed task chunk");
		byte[] hugeCount = TaskFrames.encode(new TaskFrames.Results(true, 1, List.of()));
		hugeCount[hugeCount.length - 1] = 0x7f;
		assertThatThrownBy(() -> TaskFrames.decodeResults(hugeCount)).isInstanceOf(CodecException.class).hasMessageContaining("count");
	}

	@Test
	void compactValuesRoundTripAndOthersGoThroughSerialization() {
		ShippedValues values = new ShippedValues(List.of());
		for (Object value : new Object[] {42, 7L, 2.5, true, "héllo", new byte[] {1, 2}}) {
			assertThat(values.read(values.write(value, "v"), List.of(), "v")).isEqualTo(value);
		}
		assertThat((double[]) values.read(values.write(new double[] {1.5, -2}, "v"), List.of(), "v")).containsExactly(1.5, -2);
		assertThat((float[]) values.read(values.write(new float[] {1.5f}, "v"), List.of(), "v")).containsExactly(1.5f);
		assertThat((int[]) values.read(values.write(new int[] {3, 4}, "v"), List.of(), "v")).containsExactly(3, 4);
		assertThat((long[]) values.read(values.write(new long[] {5}, "v"), List.of(), "v")).containsExactly(5);
		assertThat(values.read(values.write(List.of(1, 2), "v"), List.of(), "v")).isEqualTo(List.of(1, 2));
		assertThat(values.write(null, "v")).isNull();
		assertThat(ShippedValues.allowFor(3)).isNull();
	}

	@Test
	void unreadableValuesNameWhatAndWhy() {
		ShippedValues values = new ShippedValues(List.of());
		assertThatThrownBy(() -> values.read(new byte[] {1, 0, 0}, List.of(), "the result of task 3"))
				.isInstanceOf(CodecException.class).hasMessageContaining("the result of task 3").hasMessageContaining("int takes 4 bytes");
		assertThatThrownBy(() -> values.read(new byte[] {99}, List.of(), "the argument")).isInstanceOf(CodecException.class)
				.hasMessageContaining("unknown value tag 99");
		assertThatThrownBy(() -> values.write(new Object(), "the argument of task 1")).isInstanceOf(CodecException.class)
				.hasMessageContaining("the argument of task 1").hasMessageContaining("not Serializable");
		byte[] uri = values.write(java.net.URI.create("http://x"), "v");
		assertThatThrownBy(() -> values.read(uri, List.of(), "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("java.net.URI");
		assertThatThrownBy(() -> values.read(uri, List.of("*"), "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("not a package or class name");
	}

	@Test
	void aFunctionCacheAndItsTwinStayInStep() {
		FunctionCache<Boolean> parent = new FunctionCache<>();
		FunctionCache<String> worker = new FunctionCache<>();
		java.util.Random random = new java.util.Random(1);
		for (int i = 0; i < 20_000; i++) {
			long id = random.nextInt(400);
			boolean known = parent.get(id) != null;
			if (!known) {
				parent.put(id, Boolean.TRUE);
				worker.put(id, "fn" + id);
			}
			else {
				assertThat(worker.get(id)).as("worker holds %d", id).isEqualTo("fn" + id);
			}
		}
	}
}
