package io.fiberjvm.codec;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompactRecordsTest {

	private static final byte RECORD = 15;
	private static final byte SERIALIZED = 0;

	record Step(double[] observation, double reward, boolean terminated, boolean truncated) implements Serializable {
	}

	record Everything(int i, long l, double d, float f, short s, byte b, char c, boolean z, String text, String none,
			Integer boxed, byte[] bytes, int[] ints, long[] longs, float[] floats, Step nested) implements Serializable {
	}

	record Holding(List<Integer> list) implements Serializable {
	}

	record Twice(double[] a, double[] b) implements Serializable {
	}

	record Replaced(int x) implements Serializable {
		private Object writeReplace() {
			return this;
		}
	}

	record Plain(int x) {
	}

	record PosInt(int x) implements Serializable {
		PosInt {
			if (x < 0) {
				throw new IllegalArgumentException("x must not be negative");
			}
		}
	}

	record AnyInt(int x) implements Serializable {
	}

	record Chain(int value, Chain next) implements Serializable {
	}

	/** Its accessor says otherwise than its field. */
	record Normalised(String name) implements Serializable {
		@Override
		public String name() {
			return name == null ? "" : name;
		}
	}

	record Text(String text) implements Serializable {
	}

	record Pair(AnyInt left, AnyInt right) implements Serializable {
	}

	private final ShippedValues values = new ShippedValues(List.of());

	@Test
	void aRecordOfCompactValuesTravelsCompactlyAndComesBackEqual() {
		Step step = new Step(new double[] {0.1, -0.2, 0.3, 0.4}, 1.0, false, true);
		byte[] bytes = values.write(step, "the result");
		assertThat(bytes[0]).isEqualTo(RECORD);
		assertThat(bytes.length).isLessThan(new JavaSerializationSize().of(step));
		Step read = (Step) values.read(bytes, "the result");
		assertThat(read.observation()).containsExactly(0.1, -0.2, 0.3, 0.4);
		assertThat(read.reward()).isEqualTo(1.0);
		assertThat(read.terminated()).isFalse();
		assertThat(read.truncated()).isTrue();

		Everything all = new Everything(1, 2L, 3.5, 4.5f, (short) 5, (byte) 6, 'é', true, "héllo", null, 7,
				new byte[] {8}, new int[] {9}, new long[] {10}, new float[] {11f}, step);
		byte[] allBytes = values.write(all, "v");
		assertThat(allBytes[0]).isEqualTo(RECORD);
		Everything back = (Everything) values.read(allBytes, "v");
		assertThat(back).usingRecursiveComparison().isEqualTo(all);
	}

	@Test
	void singleNumbersOfEveryWidthAreCompact() {
		for (Object value : new Object[] {4.5f, (short) 5, (byte) 6, 'x'}) {
			byte[] bytes = values.write(value, "v");
			assertThat(bytes[0]).as("%s", value.getClass()).isNotEqualTo(SERIALIZED);
			assertThat(values.read(bytes, "v")).isEqualTo(value);
		}
	}

	@Test
	void recordsJavaSerializationTreatsOtherwiseStillGoThroughIt() {
		assertThat(values.write(new Holding(List.of(1)), "v")[0]).as("a component with no compact form").isEqualTo(SERIALIZED);
		assertThat(values.write(new Replaced(1), "v")[0]).as("writeReplace").isEqualTo(SERIALIZED);
		double[] shared = {1, 2};
		byte[] twice = values.write(new Twice(shared, shared), "v");
		assertThat(twice[0]).as("one array twice").isEqualTo(SERIALIZED);
		Twice read = (Twice) values.read(twice, "v");
		assertThat(read.a()).as("still one array after the trip").isSameAs(read.b());
		assertThat(values.write(new Twice(new double[1], new double[1]), "v")[0]).isEqualTo(RECORD);
		Chain deep = null;
		for (int i = 0; i < CompactRecords.DEPTH + 1; i++) {
			deep = new Chain(i, deep);
		}
		assertThat(values.write(deep, "v")[0]).as("nested too deep").isEqualTo(SERIALIZED);
		assertThat(values.read(values.write(deep, "v"), "v")).isEqualTo(deep);
		AnyInt one = new AnyInt(1);
		byte[] pair = values.write(new Pair(one, one), "v");
		assertThat(pair[0]).as("one record twice").isEqualTo(SERIALIZED);
		Pair readPair = (Pair) values.read(pair, "v");
		assertThat(readPair.left()).as("still one record after the trip").isSameAs(readPair.right());
		byte[] lone = values.write(new Text("a\uD800b"), "v");
		assertThat(lone[0]).as("a lone surrogate").isEqualTo(SERIALIZED);
		assertThat(values.read(lone, "v")).isEqualTo(new Text("a\uD800b"));
		assertThat(values.write(new Text("a\uD83D\uDE00b"), "v")[0]).as("a pair of surrogates").isEqualTo(RECORD);
		assertThat(values.read(values.write(new Text("a\uD83D\uDE00b"), "v"), "v")).isEqualTo(new Text("a\uD83D\uDE00b"));
		assertThatThrownBy(() -> values.write(new Plain(1), "the argument")).isInstanceOf(CodecException.class)
				.hasMessageContaining("the argument").hasMessageContaining("not Serializable");
	}

	@Test
	void componentsAreTheFieldsAsJavaSerializationTakesThemNotWhatAccessorsSay() {
		byte[] bytes = values.write(new Normalised(null), "v");
		assertThat(bytes[0]).isEqualTo(RECORD);
		assertThat(values.read(bytes, "v")).isEqualTo(new Normalised(null));
	}

	@Test
	void aRecordOverTheSizeLimitIsRefusedAtTheWriter() {
		ShippedValues small = new ShippedValues(List.of(), null, 1024);
		assertThatThrownBy(() -> small.write(new Step(new double[200], 0, false, false), "the result of step"))
				.isInstanceOf(CodecException.class).hasMessageContaining("the result of step").hasMessageContaining("max-value-size");
	}

	@Test
	void everyRecordReadPassesThroughTheResolver() {
		ShippedValues resolving = new ShippedValues(List.of(), read -> read instanceof AnyInt any ? new AnyInt(any.x() + 1) : read);
		assertThat(resolving.read(values.write(new AnyInt(1), "v"), "v")).isEqualTo(new AnyInt(2));
	}

	@Test
	void unreadableRecordsNameWhatAndWhy() {
		byte[] any = values.write(new AnyInt(-1), "v");
		byte[] pos = renamed(any, "AnyInt", "PosInt");
		assertThatThrownBy(() -> values.read(pos, "the result"))
				.isInstanceOf(CodecException.class).hasMessageContaining("the result")
				.hasMessageContaining("the constructor of " + PosInt.class.getName()).hasMessageContaining("must not be negative");

		byte[] runtime = named("java.lang.Runtime");
		assertThatThrownBy(() -> values.read(runtime, "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("java.lang.Runtime").hasMessageContaining("never travels");
		assertThatThrownBy(() -> values.read(named("com.example.Missing"), "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("com.example.Missing").hasMessageContaining("no such class");
		assertThatThrownBy(() -> values.read(java.util.Arrays.copyOf(any, any.length - 2), "the result"))
				.isInstanceOf(CodecException.class).hasMessageContaining("the result");
		byte[] extra = java.util.Arrays.copyOf(any, any.length + 1);
		assertThatThrownBy(() -> values.read(extra, "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("1 bytes more");

		// An int component that arrives as a long.
		byte[] widened = values.write(new AnyInt(3), "v");
		byte[] asLong = java.util.Arrays.copyOf(widened, widened.length + 4);
		asLong[widened.length - 6] = 9;
		asLong[widened.length - 5] = 2;
		assertThatThrownBy(() -> values.read(asLong, "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("component 0").hasMessageContaining("java.lang.Long");
		// A primitive component that arrives as null.
		byte[] nulled = java.util.Arrays.copyOf(widened, widened.length - 5);
		nulled[nulled.length - 4] = -1;
		nulled[nulled.length - 3] = -1;
		nulled[nulled.length - 2] = -1;
		nulled[nulled.length - 1] = -1;
		assertThatThrownBy(() -> values.read(nulled, "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("came as null");
		byte[] negative = nulled.clone();
		negative[negative.length - 1] = -2;
		assertThatThrownBy(() -> values.read(negative, "the result")).isInstanceOf(CodecException.class)
				.hasMessageContaining("says it has -2 bytes");
	}

	/** The bytes of a record of no components naming {@code name}. */
	private static byte[] named(String name) {
		byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
		java.nio.ByteBuffer out = java.nio.ByteBuffer.allocate(4 + utf8.length);
		return out.put(RECORD).putShort((short) utf8.length).put(utf8).put((byte) 0).array();
	}

	private static byte[] renamed(byte[] bytes, String from, String to) {
		String text = new String(bytes, StandardCharsets.ISO_8859_1);
		return text.replace(from, to).getBytes(StandardCharsets.ISO_8859_1);
	}

	/** How many bytes Java serialization makes of a value. */
	private static final class JavaSerializationSize {

		int of(Serializable value) {
			return JavaSerialization.allowing(List.of()).write(value).length;
		}
	}
}
