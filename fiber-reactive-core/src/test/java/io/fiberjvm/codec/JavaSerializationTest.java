package io.fiberjvm.codec;

import java.io.Serializable;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import javax.management.BadAttributeValueExpException;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.fiberjvm.FiberRunnable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class JavaSerializationTest {

	/** What shipped lambdas did when run; static, so lambdas use it without capturing it. */
	static final List<String> RAN = new CopyOnWriteArrayList<>();

	/** Not Serializable. */
	static final class Handle {
		final String name = "handle";
	}

	/** A serializable supplier type, for lambdas that return something. */
	interface ShippableSupplier<T> extends Supplier<T>, Serializable {
	}

	private final JavaSerialization builtIn = JavaSerialization.allowing(List.of());

	/** A writer whose allow-list is wider than the readers', to show what readers refuse. */
	private final JavaSerialization wide = JavaSerialization.allowing(List.of("java.util.concurrent.*", "javax.management.*"));

	@BeforeEach
	void clear() {
		RAN.clear();
	}

	@Test
	void aClassThatExistsOnlyInThisJvmsMemoryIsRefusedAtTheSenderNamingIt() throws Exception {
		// As jshell defines what is typed into it: compiled and defined in memory, no class file anywhere.
		String source = "package typed; public class Snippet implements java.io.Serializable { public int x = 1; }";
		javax.tools.JavaCompiler compiler = javax.tools.ToolProvider.getSystemJavaCompiler();
		java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("snippet");
		try {
			java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("Snippet.java"), source);
			assertThat(compiler.run(null, null, null, "-d", dir.toString(), file.toString())).isZero();
			byte[] classFile = java.nio.file.Files.readAllBytes(dir.resolve("typed/Snippet.class"));
			ClassLoader memory = new ClassLoader("memory", getClass().getClassLoader()) {
				@Override
				protected Class<?> findClass(String name) throws ClassNotFoundException {
					if (!name.equals("typed.Snippet")) {
						throw new ClassNotFoundException(name);
					}
					return defineClass(name, classFile, 0, classFile.length);
				}
			};
			Serializable snippet = (Serializable) memory.loadClass("typed.Snippet").getConstructor().newInstance();
			assertThatThrownBy(() -> JavaSerialization.allowing(List.of("typed.*")).write(snippet))
					.isInstanceOf(CodecException.class)
					.hasMessageContaining("typed.Snippet")
					.hasMessageContaining("made in this JVM's memory")
					.hasMessageContaining("compiled class on the class path");
		}
		finally {
			try (var paths = java.nio.file.Files.walk(dir)) {
				paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
			}
		}
	}

	@Test
	void aJdkClassTheApplicationLoaderLoadsFromTheRuntimeImageTravels() throws Exception {
		// jdk.attach's classes come from the runtime image through the application class loader.
		Class<?> attach = Class.forName("com.sun.tools.attach.AttachNotSupportedException");
		assertThat(attach.getClassLoader()).isNotNull();
		assertThat(ClassOrigin.unloadableElsewhere(attach)).isNull();
		assertThat(ClassOrigin.unloadableElsewhere(JavaSerializationTest.class)).isNull();
		assertThat(ClassOrigin.unloadableElsewhere(String.class)).isNull();
	}

	@Test
	void aSerializableLambdaRoundTripsAndRuns() {
		String word = "hello";
		int times = 3;
		FiberRunnable task = () -> RAN.add(word.repeat(times));

		byte[] bytes = builtIn.write(task);
		Runnable back = builtIn.read(bytes, Runnable.class);

		assertThat(back).isNotSameAs(task).isInstanceOf(FiberRunnable.class);
		assertThat(RAN).isEmpty();
		back.run();
		assertThat(RAN).containsExactly("hellohellohello");
	}

	@Test
	void aLambdaCapturingJdkValueTypesRoundTrips() {
		List<Integer> numbers = new ArrayList<>(List.of(1, 2, 3));
		Map<String, Long> weights = Map.of("a", 1L);
		ShippableSupplier<String> supplier = () -> numbers + "/" + weights;

		@SuppressWarnings("unchecked")
		Supplier<String> back = builtIn.read(builtIn.write(supplier), Supplier.class);

		assertThat(back.get()).isEqualTo("[1, 2, 3]/{a=1}");
	}

	@Test
	void aClassInASubPackageOfAnAllowedPackageIsRefusedNamingItAndTheKey() {
		// java.util.* admits java.util only, not java.util.concurrent.
		ConcurrentSkipListSet<String> set = new ConcurrentSkipListSet<>(List.of("b", "a"));
		byte[] bytes = wide.write(set);

		CodecException e = catchThrowableOfType(() -> builtIn.read(bytes, ConcurrentSkipListSet.class), CodecException.class);

		assertThat(e.getMessage()).contains("java.util.concurrent.ConcurrentSkipListSet").contains("fiber.serial-allow");
	}

	@Test
	void theSameClassIsAcceptedOnceItsPatternIsAllowed() {
		ConcurrentSkipListSet<String> set = new ConcurrentSkipListSet<>(List.of("b", "a"));
		JavaSerialization reader = JavaSerialization.allowing(List.of("java.util.concurrent.*"));

		ConcurrentSkipListSet<String> back = reader.read(wide.write(set), ConcurrentSkipListSet.class);

		assertThat(back).containsExactly("a", "b");
	}

	@Test
	void aClassFromAnUnlistedPackageIsRefusedUntilAllowedByPackagePattern() {
		BadAttributeValueExpException value = new BadAttributeValueExpException("bad");
		byte[] bytes = wide.write(value);

		assertThatThrownBy(() -> builtIn.read(bytes, BadAttributeValueExpException.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("javax.management.BadAttributeValueExpException")
				.hasMessageContaining("fiber.serial-allow");

		JavaSerialization reader = JavaSerialization.allowing(
				List.of(JavaSerialization.packagePattern(BadAttributeValueExpException.class)));
		assertThat(reader.read(bytes, BadAttributeValueExpException.class).toString()).contains("bad");
	}

	@Test
	void anExactClassPatternAdmitsThatClassOnly() {
		JavaSerialization reader = JavaSerialization.allowing(List.of("java.util.concurrent.ConcurrentSkipListSet"));
		// The set holds a ConcurrentSkipListMap, which the exact pattern does not admit.
		assertThatThrownBy(() -> reader.read(wide.write(new ConcurrentSkipListSet<>(List.of(1))), Object.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.util.concurrent.ConcurrentSkipListMap");
	}

	@Test
	void dangerousClassesStayRefusedWhateverTheAllowList() {
		UndeclaredThrowableException value = new UndeclaredThrowableException(null, "x");
		JavaSerialization both = JavaSerialization.allowing(List.of("java.lang.reflect.*", "java.lang.reflect.**"));

		assertThatThrownBy(() -> both.write(value))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.lang.reflect.UndeclaredThrowableException");
	}

	@Test
	void aClassReadersWouldRefuseIsRefusedAtTheWriterInOneLineNamingThePatternToAdd() {
		CodecException e = catchThrowableOfType(() -> builtIn.write(new java.util.ArrayList<>(List.of(
				new ConcurrentSkipListSet<>(List.of(1))))), CodecException.class);

		assertThat(e.getMessage()).contains("java.util.concurrent.ConcurrentSkipListSet")
				.contains("add java.util.concurrent.* to serial-allow").doesNotContain("\n");
		assertThat(catchThrowableOfType(() -> builtIn.write(new ConcurrentSkipListSet[] {new ConcurrentSkipListSet<>()}),
				CodecException.class)).as("an array is checked by its element class")
				.hasMessageContaining("java.util.concurrent.ConcurrentSkipListSet");
	}

	/** Not Serializable, and with no constructor Java serialization can call. */
	static class NoCreator {
		final int size;

		NoCreator(int size) {
			this.size = size;
		}
	}

	/** Serializable, but its superclass cannot be created again on reading. */
	static final class Weights extends NoCreator implements Serializable {
		private static final long serialVersionUID = 1L;

		Weights() {
			super(3);
		}
	}

	@Test
	void aValueThatCannotBeCreatedAgainIsRefusedAtTheWriterNamingTheFix() {
		assertThatThrownBy(() -> builtIn.write(new Weights())).isInstanceOf(CodecException.class)
				.hasMessageContaining(Weights.class.getName()).hasMessageContaining(NoCreator.class.getName())
				.hasMessageContaining("no-argument constructor");
	}

	@Test
	void aNonSerializableCaptureFailsWriteNamingIt() {
		Handle handle = new Handle();
		FiberRunnable task = () -> RAN.add(handle.name);

		CodecException e = catchThrowableOfType(() -> builtIn.write(task), CodecException.class);

		assertThat(e.getMessage()).contains("cannot send").contains(Handle.class.getName()).contains("not Serializable");
		assertThat(e.getCause()).isInstanceOf(java.io.NotSerializableException.class);
	}

	@Test
	void writeRefusesNull() {
		assertThatThrownBy(() -> builtIn.write(null)).isInstanceOf(NullPointerException.class);
	}

	@Test
	void readingAsTheWrongTypeIsACodecExceptionNamingBoth() {
		byte[] bytes = builtIn.write("just a string");
		assertThatThrownBy(() -> builtIn.read(bytes, Runnable.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("java.lang.String")
				.hasMessageContaining("java.lang.Runnable");
		assertThat(builtIn.read(bytes, String.class)).isEqualTo("just a string");
	}

	@Test
	void garbageIsACodecException() {
		assertThatThrownBy(() -> builtIn.read(new byte[] {1, 2, 3, 4}, Runnable.class))
				.isInstanceOf(CodecException.class)
				.hasMessageContaining("cannot deserialize");
		assertThatThrownBy(() -> builtIn.read(new byte[0], Runnable.class)).isInstanceOf(CodecException.class);
	}

	@Test
	void truncatedBytesAreACodecException() {
		byte[] bytes = builtIn.write((FiberRunnable) () -> RAN.add("x"));
		byte[] half = java.util.Arrays.copyOf(bytes, bytes.length / 2);
		assertThatThrownBy(() -> builtIn.read(half, Runnable.class)).isInstanceOf(CodecException.class);
	}

	@Test
	void aGraphTooDeepForTheStackIsRefusedAtTheWriterSayingSo() {
		List<Object> root = new ArrayList<>();
		List<Object> current = root;
		for (int i = 0; i < 1_000_000; i++) {
			List<Object> next = new ArrayList<>();
			current.add(next);
			current = next;
		}

		CodecException e = catchThrowableOfType(() -> builtIn.write((Serializable) root), CodecException.class);

		assertThat(e.getMessage()).contains("nested too deeply");
	}

	/** A value holding an exception of a package readers refuse, and a primitive type. */
	record Outcome(String name, Throwable error, Class<?> type) implements Serializable {
	}

	@Test
	void anExceptionInsideAValueIsCheckedLikeAnyClassAndPrimitiveTypesTravel() {
		assertThatThrownBy(() -> builtIn.write(new Outcome("x", new java.io.FileNotFoundException("f"), int.class)))
				.isInstanceOf(CodecException.class).hasMessageContaining("add java.io.* to serial-allow");
		Outcome back = builtIn.read(builtIn.write(new Outcome("x", new IllegalStateException("s"), int.class)), Outcome.class);
		assertThat(back.type()).isEqualTo(int.class);
		assertThat(back.error()).hasMessage("s");
	}

	@Test
	void classesThatNeverTravelAreRefusedSayingSoNotWithAPatternToAdd() {
		Runnable proxy = (Runnable) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] {Runnable.class, Serializable.class}, (p, m, a) -> null);
		assertThatThrownBy(() -> builtIn.write((Serializable) proxy)).isInstanceOf(CodecException.class)
				.hasMessageContaining("proxy").hasMessageContaining("never travels").hasMessageNotContaining("serial-allow");
		assertThatThrownBy(() -> builtIn.write(new RuntimeException(new java.lang.reflect.InvocationTargetException(null))))
				.isInstanceOf(CodecException.class).hasMessageContaining("java.lang.reflect.InvocationTargetException")
				.hasMessageContaining("never travels");
	}

	@Test
	void aShallowNestedGraphIsAccepted() {
		List<Object> root = new ArrayList<>();
		List<Object> current = root;
		for (int i = 0; i < 10; i++) {
			List<Object> next = new ArrayList<>();
			current.add(next);
			current = next;
		}
		assertThat(builtIn.read(builtIn.write((Serializable) root), List.class)).isEqualTo(root);
	}

	@Test
	void packagePatternAdmitsTheWholePackage() {
		assertThat(JavaSerialization.packagePattern(String.class)).isEqualTo("java.lang.*");
		assertThat(JavaSerialization.packagePattern(ConcurrentSkipListSet.class)).isEqualTo("java.util.concurrent.*");
		assertThat(JavaSerialization.packagePattern(Map.Entry.class)).isEqualTo("java.util.*");
		assertThat(JavaSerialization.packagePattern(JavaSerializationTest.class)).isEqualTo("io.fiberjvm.codec.*");
	}

	@Test
	void builtInPatternsCoverFibersOwnClassesAndLambdas() {
		assertThat(JavaSerialization.BUILT_IN).contains("io.fiberjvm.**", "java.lang.invoke.SerializedLambda");
		assertThatThrownBy(() -> JavaSerialization.allowing(null)).isInstanceOf(NullPointerException.class);
	}
}
