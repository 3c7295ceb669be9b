package io.fiberjvm.codec;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShippedValuesTest {

	@Test
	void compactValuesRoundTripAndOthersGoThroughSerialization() {
		ShippedValues values = new ShippedValues(List.of());
		for (Object value : new Object[] {42, 7L, 2.5, true, "héllo", new byte[] {1, 2}}) {
			assertThat(values.read(values.write(value, "v"), "v")).isEqualTo(value);
		}
		assertThat((double[]) values.read(values.write(new double[] {1.5, -2}, "v"), "v")).containsExactly(1.5, -2);
		assertThat((float[]) values.read(values.write(new float[] {1.5f}, "v"), "v")).containsExactly(1.5f);
		assertThat((int[]) values.read(values.write(new int[] {3, 4}, "v"), "v")).containsExactly(3, 4);
		assertThat((long[]) values.read(values.write(new long[] {5}, "v"), "v")).containsExactly(5);
		assertThat(values.read(values.write(List.of(1, 2), "v"), "v")).isEqualTo(List.of(1, 2));
		assertThat(values.write(null, "v")).isNull();
		assertThat(ShippedValues.packagePattern(ShippedValuesTest.class)).isEqualTo("io.fiberjvm.codec.*");
	}

	@Test
	void arraysOfNumbersAreLittleEndianUnderTagsOfTheirOwn() {
		ShippedValues values = new ShippedValues(List.of());
		assertThat(values.write(new int[] {1, 0x01020304}, "v")).containsExactly(13, 1, 0, 0, 0, 4, 3, 2, 1);
		byte[] doubles = values.write(new double[] {1.0}, "v");
		assertThat(doubles).hasSize(9);
		assertThat(doubles[0]).isEqualTo((byte) 11);
		assertThat(ByteBuffer.wrap(doubles, 1, 8).order(ByteOrder.LITTLE_ENDIAN).getDouble()).isEqualTo(1.0);
		// A big-endian array of an older build is refused, not read as other numbers.
		assertThatThrownBy(() -> values.read(new byte[] {7, 0x3f, (byte) 0xf0, 0, 0, 0, 0, 0, 0}, "the argument"))
				.isInstanceOf(CodecException.class).hasMessageContaining("unknown value tag 7");
	}

	@Test
	void largeCompactValuesAreWrittenWithRoomInFrontAndOthersWithout() {
		ShippedValues values = new ShippedValues(List.of(), null, 1 << 20);
		int[] large = new int[ShippedValues.ROOMY / 4];
		large[large.length - 1] = 9;
		ByteBuffer roomy = values.writeAfter(34, large, "v");
		assertThat(roomy.position()).isEqualTo(34);
		assertThat(roomy.remaining()).isEqualTo(1 + large.length * 4);
		assertThat(ByteBuffer.wrap(roomy.array(), 34, roomy.remaining())).isEqualTo(ByteBuffer.wrap(values.write(large, "v")));
		assertThat((int[]) values.read(roomy, "v")).containsExactly(large);
		for (Object value : new Object[] {new int[] {1, 2}, "x".repeat(ShippedValues.ROOMY), List.of(1, 2)}) {
			ByteBuffer bytes = values.writeAfter(34, value, "v");
			assertThat(bytes.position()).as("no room for %s", value.getClass()).isZero();
			assertThat(bytes.array()).isEqualTo(values.write(value, "v"));
		}
		assertThat(values.writeAfter(34, null, "v")).isNull();
		// The size wall and the checks of write hold the same way.
		assertThatThrownBy(() -> values.writeAfter(34, new double[1 << 17], "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("the result").hasMessageContaining("max-value-size");
		assertThatThrownBy(() -> values.writeAfter(34, new Object(), "the argument")).isInstanceOf(CodecException.class)
				.hasMessageContaining("not Serializable");
		assertThatThrownBy(() -> values.writeAfter(-1, large, "v")).isInstanceOf(IllegalArgumentException.class);
	}

	@Test
	void unreadableValuesNameWhatAndWhy() {
		ShippedValues values = new ShippedValues(List.of());
		assertThatThrownBy(() -> values.read(new byte[] {1, 0, 0}, "the result of task 3"))
				.isInstanceOf(CodecException.class).hasMessageContaining("the result of task 3").hasMessageContaining("int takes 4 bytes");
		assertThatThrownBy(() -> values.read(new byte[] {99}, "the argument")).isInstanceOf(CodecException.class)
				.hasMessageContaining("unknown value tag 99");
		assertThatThrownBy(() -> values.write(new Object(), "the argument of task 1")).isInstanceOf(CodecException.class)
				.hasMessageContaining("the argument of task 1").hasMessageContaining("not Serializable");
		byte[] uri = new ShippedValues(List.of("java.net.*")).write(java.net.URI.create("http://x"), "v");
		assertThatThrownBy(() -> values.read(uri, "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("java.net.URI");
		assertThatThrownBy(() -> values.readFunction(new byte[0], List.of("*"), Runnable.class, "the target"))
				.isInstanceOf(CodecException.class).hasMessageContaining("not a package or class name");
	}

	/** Stands for something bound to the process reading it; says whether it was read by a resolving stream. */
	record Placeholder(String name) implements Serializable {
	}

	/** Refuses any stream but a runtime's, as a handle does. */
	static final class Guarded implements Serializable {

		private static final long serialVersionUID = 1L;

		private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
			if (!ShippedValues.resolvesHandles(in)) {
				throw new java.io.InvalidObjectException("only a runtime reads this");
			}
			in.defaultReadObject();
		}
	}

	@Test
	void everyObjectReadPassesThroughTheReadersResolver() {
		ShippedValues writer = new ShippedValues(List.of());
		ShippedValues reader = new ShippedValues(List.of(),
				read -> read instanceof Placeholder placeholder ? "resolved " + placeholder.name() : read);
		byte[] one = writer.write(new Placeholder("q1"), "v");
		assertThat(reader.read(one, "v")).isEqualTo("resolved q1");
		assertThat(reader.read(writer.write(List.of(new Placeholder("a"), new Placeholder("b")), "v"), "v"))
				.isEqualTo(List.of("resolved a", "resolved b"));
		assertThat(writer.read(one, "v")).as("a reader without a resolver keeps it").isEqualTo(new Placeholder("q1"));

		byte[] guarded = writer.write(new Guarded(), "v");
		assertThat(reader.read(guarded, "v")).isInstanceOf(Guarded.class);
		assertThatThrownBy(() -> writer.read(guarded, "the handle")).isInstanceOf(CodecException.class)
				.hasMessageContaining("only a runtime reads this");
		AtomicBoolean plain = new AtomicBoolean();
		try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(java.util.Arrays.copyOfRange(guarded, 1, guarded.length)))) {
			in.readObject();
		}
		catch (IOException | ClassNotFoundException e) {
			plain.set(e.getMessage().contains("only a runtime reads this"));
		}
		assertThat(plain).as("a plain stream is refused").isTrue();
	}
}
