package io.fiberjvm.benchmarks;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import org.apache.fory.Fory;
import org.apache.fory.ThreadSafeFory;
import org.apache.fory.resolver.AllowListChecker;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.fiberjvm.codec.ShippedValues;

/**
 * One value written and read back, by each candidate for the one codec every primitive uses: Jackson Smile
 * (typed by the class the reader gives), JDK serialization read behind an {@code ObjectInputFilter} allow-list,
 * and Apache Fory with an allow-list type checker (JIT-generated serializers, or interpreted ones). Values:
 * a boxed int, a 32-character string, primitive arrays of 1,000 and 1,000,000 doubles, a record, a list of
 * 100 records, a map of 100 entries, a bean with a no-argument constructor and a class with final fields and
 * none. Each trial prints the encoded size; a codec that cannot carry a value fails that trial, which is a
 * result too.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
@State(Scope.Benchmark)
public class CodecBenchmark {

	/** An environment step, as a simulator returns it. */
	public record Step(int step, double[] observation, double reward, boolean done) implements Serializable {
	}

	/** A bean: no-argument constructor, getters and setters. */
	public static final class Settings implements Serializable {
		private String name = "";
		private double learningRate;
		private int population;

		public Settings() {
		}

		public String getName() {
			return name;
		}

		public void setName(String name) {
			this.name = name;
		}

		public double getLearningRate() {
			return learningRate;
		}

		public void setLearningRate(double learningRate) {
			this.learningRate = learningRate;
		}

		public int getPopulation() {
			return population;
		}

		public void setPopulation(int population) {
			this.population = population;
		}
	}

	/** A class with final fields and no no-argument constructor. */
	public static final class Transition implements Serializable {
		private final long id;
		private final float[] state;
		private final int action;

		public Transition(long id, float[] state, int action) {
			this.id = id;
			this.state = state;
			this.action = action;
		}

		public long id() {
			return id;
		}
	}

	@Param({"int", "string", "doubles1k", "doubles1m", "record", "records100", "map100", "bean", "noDefaultConstructor"})
	public String value;

	@Param({"fiber", "smile", "jdk", "fory", "fory-interpreted"})
	public String codec;

	private Object item;
	private JavaType smileType;
	private ObjectMapper smile;
	private ObjectInputFilter filter;
	private ThreadSafeFory fory;
	private ShippedValues fiber;

	@Setup(Level.Trial)
	public void prepare() {
		item = value(value);
		// Only the codec measured is built, so a fresh JVM pays for that one alone (CodecStartupHarness).
		switch (codec) {
			case "smile" -> {
				smile = new ObjectMapper(SmileFactory.builder().disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT).build())
						.findAndRegisterModules();
				smileType = value.equals("records100") ? smile.getTypeFactory().constructType(new TypeReference<List<Step>>() { })
						: value.equals("map100") ? smile.getTypeFactory().constructType(new TypeReference<Map<String, Integer>>() { })
								: smile.getTypeFactory().constructType(item.getClass());
			}
			case "fiber" -> fiber = new ShippedValues(List.of());
			case "jdk" -> filter = ObjectInputFilter.Config.createFilter(
					"java.lang.*;java.util.*;io.fiberjvm.**;maxdepth=64;maxrefs=1000000;maxarray=2147483647;!*");
			default -> {
				AllowListChecker checker = new AllowListChecker(AllowListChecker.CheckLevel.STRICT);
				checker.allowClass("io.fiberjvm.*");
				fory = Fory.builder().withXlang(false).requireClassRegistration(false).withTypeChecker(checker)
						.withRefTracking(true).withCompatible(false).withCodegen(!codec.equals("fory-interpreted"))
						.withMaxGraphMemoryBytes(Integer.MAX_VALUE).buildThreadSafeFory();
			}
		}
		byte[] bytes = encode(item);
		System.out.println("encoded size: " + codec + " " + value + " " + bytes.length + " bytes");
		Object back = decode(bytes);
		if (!Objects.equals(describe(back), describe(item))) {
			throw new IllegalStateException(codec + " read " + value + " back as " + describe(back));
		}
	}

	@Benchmark
	public Object roundTrip() {
		return decode(encode(item));
	}

	private byte[] encode(Object v) {
		try {
			switch (codec) {
				case "fiber":
					return fiber.encode(v);
				case "smile":
					return smile.writeValueAsBytes(v);
				case "jdk":
					ByteArrayOutputStream out = new ByteArrayOutputStream(256);
					try (ObjectOutputStream objects = new ObjectOutputStream(out)) {
						objects.writeObject(v);
					}
					return out.toByteArray();
				default:
					return fory.serialize(v);
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
	}

	private Object decode(byte[] bytes) {
		try {
			switch (codec) {
				case "fiber":
					return fiber.decode(bytes, Object.class);
				case "smile":
					return smile.readValue(bytes, smileType);
				case "jdk":
					try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
						in.setObjectInputFilter(filter);
						return in.readObject();
					}
				default:
					return fory.deserialize(bytes);
			}
		}
		catch (IOException e) {
			throw new UncheckedIOException(e);
		}
		catch (ClassNotFoundException e) {
			throw new IllegalStateException(e);
		}
	}

	static Object value(String kind) {
		double[] observation = {0.01, -0.02, 0.03, 0.04};
		return switch (kind) {
			case "int" -> 42;
			case "string" -> "policy-weights-for-iteration-042";
			case "doubles1k" -> doubles(1_000);
			case "doubles1m" -> doubles(1_000_000);
			case "record" -> new Step(7, observation, 1.0, false);
			case "records100" -> {
				List<Step> steps = new ArrayList<>();
				for (int i = 0; i < 100; i++) {
					steps.add(new Step(i, observation.clone(), i * 0.5, i == 99));
				}
				yield steps;
			}
			case "map100" -> {
				Map<String, Integer> counts = new HashMap<>();
				for (int i = 0; i < 100; i++) {
					counts.put("worker-" + i, i * 31);
				}
				yield counts;
			}
			case "bean" -> {
				Settings settings = new Settings();
				settings.setName("es");
				settings.setLearningRate(0.01);
				settings.setPopulation(256);
				yield settings;
			}
			case "noDefaultConstructor" -> new Transition(12, new float[] {1, 2, 3, 4}, 1);
			default -> throw new IllegalArgumentException(kind);
		};
	}

	private static double[] doubles(int n) {
		double[] d = new double[n];
		for (int i = 0; i < n; i++) {
			d[i] = i * 0.25;
		}
		return d;
	}

	/** A comparable text of a value: records and collections by content, arrays by content, beans by fields. */
	private static String describe(Object v) {
		if (v instanceof double[] d) {
			return Arrays.toString(d);
		}
		if (v instanceof Step s) {
			return s.step + Arrays.toString(s.observation) + s.reward + s.done;
		}
		if (v instanceof List<?> list) {
			StringBuilder text = new StringBuilder();
			list.forEach(e -> text.append(describe(e)).append(';'));
			return text.toString();
		}
		if (v instanceof Settings s) {
			return s.name + s.learningRate + s.population;
		}
		if (v instanceof Transition t) {
			return t.id + Arrays.toString(t.state) + t.action;
		}
		return String.valueOf(v);
	}
}
