package io.fiberjvm.codec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * Java serialization for shipped functions, targets and values, read behind an {@link ObjectInputFilter} allow-list.
 *
 * <p>Values travel through a {@link Codec}; this class exists because lambdas and task objects
 * cannot. Reading accepts the classes a serializable lambda is made of (the JDK's value types,
 * {@code SerializedLambda}, Fiber's own classes) plus the patterns given; anything else is refused
 * with a {@link CodecException} naming the class. Depth, references and array lengths are bounded.
 */
final class JavaSerialization {

	/** Patterns every reader accepts. */
	static final List<String> BUILT_IN = List.of(
			"java.lang.*", "java.util.*", "java.util.function.*", "java.time.*", "java.math.*",
			"java.lang.invoke.SerializedLambda", "io.fiberjvm.**");

	/** Patterns every reader refuses, whatever the allow-list says. */
	private static final List<String> ALWAYS_REFUSED = List.of("!java.lang.Process*", "!java.lang.Runtime",
			"!java.lang.reflect.**", "!java.lang.invoke.MethodHandle*");

	private static final java.util.regex.Pattern SENDER_PATTERN =
			java.util.regex.Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*(\\.\\*)?");

	private final ObjectInputFilter filter;
	private final String allowed;

	private JavaSerialization(List<String> extraPatterns) {
		List<String> patterns = new ArrayList<>(ALWAYS_REFUSED);
		patterns.addAll(BUILT_IN);
		patterns.addAll(extraPatterns);
		this.allowed = String.join(";", patterns);
		this.filter = ObjectInputFilter.Config.createFilter(allowed + ";maxdepth=64;maxrefs=1000000;maxarray=16777216;!*");
	}

	/** A reader and writer that accepts the built-in patterns plus {@code extraPatterns}. */
	static JavaSerialization allowing(List<String> extraPatterns) {
		return new JavaSerialization(List.copyOf(Objects.requireNonNull(extraPatterns, "extraPatterns")));
	}

	/** The pattern that admits the package of {@code type}: {@code com.acme.*}. */
	static String packagePattern(Class<?> type) {
		String pkg = type.getPackageName();
		// A lambda's hidden class name has a '/', which the filter reads as a module: name its nest host.
		return pkg.isEmpty() ? type.getNestHost().getName() : pkg + ".*";
	}

	/**
	 * This process's own patterns plus those a sender asked for, which may only name one package or
	 * class ({@code com.acme.*}, {@code com.acme.Point}): never wildcards over everything or filter limits.
	 */
	static List<String> withSenderPatterns(List<String> localAllow, List<String> senderAllow) {
		List<String> patterns = new ArrayList<>(localAllow);
		for (String pattern : senderAllow) {
			if (localAllow.contains(pattern) || patterns.contains(pattern)) {
				continue;
			}
			if (!SENDER_PATTERN.matcher(pattern).matches()) {
				throw new CodecException("the sender asks to allow '" + pattern + "', which is not a package or class name; refused");
			}
			patterns.add(pattern);
		}
		return patterns;
	}

	/** Writes a serializable object, or fails naming the part that is not serializable. */
	byte[] write(Serializable value) {
		Objects.requireNonNull(value, "value");
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(value);
		}
		catch (NotSerializableException e) {
			throw new CodecException("cannot ship " + value.getClass().getName() + ": it holds a "
					+ e.getMessage() + ", which is not Serializable (a lambda captures every variable it uses)", e);
		}
		catch (IOException e) {
			throw new CodecException("cannot ship " + value.getClass().getName() + ": " + e.getMessage(), e);
		}
		return bytes.toByteArray();
	}

	/** Reads what {@link #write} wrote, refusing classes outside the allow-list. */
	<T> T read(byte[] bytes, Class<T> expected) {
		return read(bytes, expected, null);
	}

	/**
	 * Reads what {@link #write} wrote, refusing classes outside the allow-list, with every object read replaced
	 * by what {@code resolver} makes of it: how a handle read here becomes one of the reading runtime.
	 */
	<T> T read(byte[] bytes, Class<T> expected, @Nullable UnaryOperator<Object> resolver) {
		Objects.requireNonNull(bytes, "bytes");
		Objects.requireNonNull(expected, "expected");
		@Nullable String[] refused = new String[1];
		Object value;
		try (ObjectInputStream in = new ResolvingInput(bytes, resolver)) {
			// The JDK's rejection does not say which class it was; remember it for the message.
			in.setObjectInputFilter(info -> {
				ObjectInputFilter.Status status = filter.checkInput(info);
				if (status == ObjectInputFilter.Status.REJECTED && refused[0] == null) {
					refused[0] = info.serialClass() != null ? "class " + info.serialClass().getName()
							: "a graph over the limits (depth " + info.depth() + ", references " + info.references()
									+ ", array length " + info.arrayLength() + ")";
				}
				return status;
			});
			value = in.readObject();
		}
		catch (InvalidClassException e) {
			String what = refused[0] != null ? refused[0] : String.valueOf(e.getMessage());
			if (what.startsWith("class ")) {
				throw new CodecException("refused to deserialize " + what
						+ ": outside the allow-list (add a pattern to fiber.serial-allow); allowed: " + allowed, e);
			}
			throw new CodecException("refused to deserialize " + what + ": over the limits for a shipped object", e);
		}
		catch (IOException | ClassNotFoundException | RuntimeException e) {
			throw new CodecException("cannot deserialize a shipped object: " + e, e);
		}
		if (!expected.isInstance(value)) {
			throw new CodecException("a shipped object is a " + value.getClass().getName() + ", not a " + expected.getName());
		}
		return expected.cast(value);
	}

	/** Whether {@code in} is reading for a runtime that resolves handles. */
	static boolean resolves(ObjectInputStream in) {
		return in instanceof ResolvingInput reading && reading.resolver != null;
	}

	/** Reads classes through the context class loader, and hands each object read to a resolver. */
	private static final class ResolvingInput extends ObjectInputStream {

		private final @Nullable UnaryOperator<Object> resolver;

		ResolvingInput(byte[] bytes, @Nullable UnaryOperator<Object> resolver) throws IOException {
			super(new ByteArrayInputStream(bytes));
			this.resolver = resolver;
			enableResolveObject(resolver != null);
		}

		@Override
		protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
			return Class.forName(desc.getName(), false, contextLoader());
		}

		@Override
		protected Object resolveObject(Object read) {
			return resolver == null ? read : resolver.apply(read);
		}
	}

	private static ClassLoader contextLoader() {
		ClassLoader loader = Thread.currentThread().getContextClassLoader();
		return loader != null ? loader : JavaSerialization.class.getClassLoader();
	}
}
