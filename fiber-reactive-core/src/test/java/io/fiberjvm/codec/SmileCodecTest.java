package io.fiberjvm.codec;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class SmileCodecTest {

	record Point(int x, int y) {
	}

	record Shape(String name, List<Point> corners, Map<String, Double> tags) {
	}

	record Box<T>(String label, T content) {
	}

	/** A plain bean, not a record. */
	static final class Counter {
		private String name;
		private long count;

		public String getName() {
			return name;
		}

		public void setName(String name) {
			this.name = name;
		}

		public long getCount() {
			return count;
		}

		public void setCount(long count) {
			this.count = count;
		}
	}

	enum Colour { RED, GREEN }

	private final Codec codec = Codec.smile();

	/** {@code raw<args>} as a reflective type. */
	private static ParameterizedType parameterized(Class<?> raw, Type... args) {
		return new ParameterizedType() {
			@Override
			public Type[] getActualTypeArguments() {
				return args.clone();
			}

			@Override
			public Type getRawType() {
				return raw;
			}

			@Override
			public Type getOwnerType() {
				return null;
			}

			@Override
			public String toString() {
				return raw.getName() + Arrays.toString(args);
			}
		};
	}

	private <T> T roundTrip(T value, Class<T> type) {
		return codec.decode(codec.encode(value), type);
	}

	@Test
	void theDefaultCodecIsOneSharedInstance() {
		assertThat(Codec.smile()).isSameAs(Codec.smile()).isInstanceOf(SmileCodec.class);
	}

	@Test
	void encodesSmileNotJson() {
		byte[] bytes = codec.encode(new Point(1, 2));
		// Every Smile document starts with the ":)\n" header.
		assertThat(new String(bytes, 0, 3, StandardCharsets.ISO_8859_1)).isEqualTo(":)\n");
	}

	@Test
	void roundTripsRecords() {
		assertThat(roundTrip(new Point(3, -4), Point.class)).isEqualTo(new Point(3, -4));
		Shape shape = new Shape("tri", List.of(new Point(0, 0), new Point(1, 0), new Point(0, 1)),
				new LinkedHashMap<>(Map.of("area", 0.5)));
		assertThat(roundTrip(shape, Shape.class)).isEqualTo(shape);
	}

	@Test
	void roundTripsBeansScalarsEnumsAndArrays() {
		Counter c = new Counter();
		c.setName("hits");
		c.setCount(Long.MAX_VALUE);
		Counter back = roundTrip(c, Counter.class);
		assertThat(back.getName()).isEqualTo("hits");
		assertThat(back.getCount()).isEqualTo(Long.MAX_VALUE);

		assertThat(roundTrip("héllo wörld ✓", String.class)).isEqualTo("héllo wörld ✓");
		assertThat(roundTrip(42, Integer.class)).isEqualTo(42);
		assertThat(roundTrip(-1.25, Double.class)).isEqualTo(-1.25);
		assertThat(roundTrip(true, Boolean.class)).isTrue();
		assertThat(roundTrip(Colour.GREEN, Colour.class)).isEqualTo(Colour.GREEN);
		assertThat(roundTrip(new int[] {1, 2, 3}, int[].class)).containsExactly(1, 2, 3);
		assertThat(roundTrip(new byte[] {0, -1, 127}, byte[].class)).containsExactly(0, -1, 127);
		assertThat(roundTrip(new Point[] {new Point(1, 1)}, Point[].class)).containsExactly(new Point(1, 1));
	}

	@Test
	void roundTripsListsAndMapsByClassAsPlainValues() {
		List<Object> list = codec.decode(codec.encode(List.of(1, "two", 3.0)), List.class);
		assertThat(list).containsExactly(1, "two", 3.0);

		Map<String, Object> map = codec.decode(codec.encode(Map.of("a", 1)), Map.class);
		assertThat(map).containsExactly(Map.entry("a", 1));

		// Without the generic type, nested records come back as maps.
		List<?> points = codec.decode(codec.encode(List.of(new Point(1, 2))), List.class);
		assertThat(points.get(0)).isEqualTo(Map.of("x", 1, "y", 2));
	}

	@Test
	void decodesNestedGenericsFromAReflectiveParameterizedType() {
		List<Point> points = List.of(new Point(1, 2), new Point(3, 4));
		Type listOfPoint = parameterized(List.class, Point.class);

		List<Point> back = codec.decode(codec.encode(points), listOfPoint);

		assertThat(back).containsExactly(new Point(1, 2), new Point(3, 4));
		assertThat(back.get(0)).isInstanceOf(Point.class);
	}

	@Test
	void decodesDeeplyNestedGenericsFromATypeReference() {
		Map<String, List<Box<Point>>> value = Map.of(
				"a", List.of(new Box<>("first", new Point(1, 1))),
				"b", List.of());
		Type type = new TypeReference<Map<String, List<Box<Point>>>>() { }.getType();

		Map<String, List<Box<Point>>> back = codec.decode(codec.encode(value), type);

		assertThat(back).isEqualTo(value);
		assertThat(back.get("a").get(0).content()).isInstanceOf(Point.class);
	}

	@Test
	void genericTypeGivenAsAClassObjectWorksToo() {
		Type pointClass = Point.class;
		Point p = codec.decode(codec.encode(new Point(5, 6)), pointClass);
		assertThat(p).isEqualTo(new Point(5, 6));
	}

	@Test
	void nullFieldsRoundTrip() {
		record WithNull(String a, Point b) {
		}
		assertThat(roundTrip(new WithNull(null, null), WithNull.class)).isEqualTo(new WithNull(null, null));
		assertThat(roundTrip(new Shape("empty", List.of(), Map.of()), Shape.class)).isEqualTo(new Shape("empty", List.of(), Map.of()));
	}

	@Test
	void nullRoundTripsAsNull() {
		byte[] bytes = codec.encode(null);
		assertThat(bytes).isNotEmpty();
		assertThat(codec.decode(bytes, Point.class)).isNull();
		assertThat(codec.decode(bytes, String.class)).isNull();
		Object nothing = codec.decode(bytes, parameterized(List.class, Point.class));
		assertThat(nothing).isNull();
	}

	@Test
	void garbageBytesAreACodecExceptionNamingTheType() {
		byte[] garbage = "definitely not smile".getBytes(StandardCharsets.UTF_8);
		CodecException e = catchThrowableOfType(() -> codec.decode(garbage, Point.class), CodecException.class);
		assertThat(e.getMessage()).contains(Point.class.getName()).contains(garbage.length + " bytes");
		assertThat(e.getCause()).isNotNull();
		assertThat(e.getMessage()).doesNotContain("\n");
	}

	@Test
	void garbageBytesForAGenericTypeNameTheWholeType() {
		byte[] garbage = {(byte) 0xff, 0x00, 0x13, 0x37};
		assertThatThrownBy(() -> codec.decode(garbage, parameterized(List.class, Point.class)))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.util.List<" + Point.class.getName() + ">");
	}

	@Test
	void emptyAndTruncatedInputAreCodecExceptions() {
		assertThatThrownBy(() -> codec.decode(new byte[0], Point.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining(Point.class.getName());
		byte[] whole = codec.encode(new Shape("s", List.of(new Point(1, 2)), Map.of()));
		byte[] half = Arrays.copyOf(whole, whole.length / 2);
		assertThatThrownBy(() -> codec.decode(half, Shape.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining(Shape.class.getName());
	}

	@Test
	void trailingDataIsRefused() {
		byte[] one = codec.encode(Map.of("a", 1));
		byte[] two = codec.encode(2);
		// The second value without its ":)\n" header: a token after the first value.
		byte[] both = Arrays.copyOf(one, one.length + two.length - 3);
		System.arraycopy(two, 3, both, one.length, two.length - 3);
		assertThatThrownBy(() -> codec.decode(both, Map.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.util.Map");
	}

	@Test
	void wrongTypeIsACodecException() {
		byte[] point = codec.encode(new Point(1, 2));
		assertThatThrownBy(() -> codec.decode(point, Integer.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.lang.Integer");
		assertThatThrownBy(() -> codec.decode(point, Shape.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining(Shape.class.getName());
		assertThatThrownBy(() -> codec.decode(codec.encode("text"), Point.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining(Point.class.getName());
		assertThatThrownBy(() -> codec.decode(codec.encode(List.of("a")), parameterized(List.class, Point.class)))
				.isInstanceOf(CodecException.class);
		assertThatThrownBy(() -> codec.decode(codec.encode("PURPLE"), Colour.class))
				.isInstanceOf(CodecException.class);
	}

	@Test
	void anUnencodableValueIsACodecExceptionNamingItsClass() {
		Object selfReferencing = new Object() {
			@SuppressWarnings("unused")
			public Object getSelf() {
				return this;
			}
		};
		CodecException e = catchThrowableOfType(() -> codec.encode(selfReferencing), CodecException.class);
		assertThat(e.getMessage()).contains("cannot encode").contains(selfReferencing.getClass().getName());
	}

	@Test
	void emptyBeansEncode() {
		assertThat(codec.encode(new Object())).isNotEmpty();
	}
}
