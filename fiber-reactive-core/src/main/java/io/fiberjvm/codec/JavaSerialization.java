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
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.BulkCopy;

/**
 * Java serialization for shipped functions, targets and values, behind an {@link ObjectInputFilter} allow-list
 * applied on both sides.
 *
 * <p>The allow-list accepts the classes a serializable lambda is made of (the JDK's value types,
 * {@code SerializedLambda}, Fiber's own classes) plus the patterns given. Writing checks every class it writes
 * against the same list, and that the class can be created again on reading, so a value the other side would
 * refuse fails at the sender with a one-line {@link CodecException} naming the class and the fix. Reading
 * refuses anything else with a {@link CodecException} naming the class.
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
		// No depth or reference limit: the peer proved the run's secret, and a sender could not see such limits coming.
		this.filter = ObjectInputFilter.Config.createFilter(allowed + ";!*");
	}

	/** A reader and writer that accepts the built-in patterns plus {@code extraPatterns}. */
	static JavaSerialization allowing(List<String> extraPatterns) {
		return new JavaSerialization(List.copyOf(Objects.requireNonNull(extraPatterns, "extraPatterns")));
	}

	private static final ObjectInputFilter NEVER = ObjectInputFilter.Config.createFilter(String.join(";", ALWAYS_REFUSED));

	/** The pattern to add to {@code serial-allow} for {@code type}: its package, or in the unnamed package its nest. */
	static String advicePattern(Class<?> type) {
		String pattern = packagePattern(type);
		return type.getPackageName().isEmpty() ? pattern + "*" : pattern;
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

	/**
	 * Writes a serializable object whose every class this allow-list admits and can create again, or fails
	 * naming the class and the fix.
	 */
	byte[] write(Serializable value) {
		try {
			return write(value, null, Integer.MAX_VALUE - 8);
		}
		catch (ValueTooLargeException e) {
			throw new CodecException("cannot send a " + value.getClass().getName() + ": " + e.getMessage(), e);
		}
	}

	/**
	 * As {@link #write(Serializable)}, after {@code tag} when there is one, failing once more than {@code limit}
	 * bytes of the value are written.
	 */
	byte[] write(Serializable value, @Nullable Byte tag, long limit) throws ValueTooLargeException {
		Objects.requireNonNull(value, "value");
		BoundedBytes bytes = new BoundedBytes(limit + (tag == null ? 0 : 1));
		if (tag != null) {
			bytes.write(tag);
		}
		try (CheckingOutput out = new CheckingOutput(bytes)) {
			out.writeObject(value);
			out.raiseHeldBack();
		}
		catch (StackOverflowError e) {
			throw new CodecException("cannot send a " + value.getClass().getName() + ": it is nested too deeply for Java "
					+ "serialization (a long linked structure); send it as a list or an array", e);
		}
		catch (UncheckedIOException e) {
			if (e.getCause() instanceof ValueTooLargeException tooLarge) {
				throw tooLarge;
			}
			throw new CodecException("cannot send a " + value.getClass().getName() + ": " + e.getMessage(), e);
		}
		catch (NotSerializableException e) {
			throw new CodecException("cannot send a " + value.getClass().getName() + ": it holds a " + e.getMessage()
					+ ", which is not Serializable; make it implement java.io.Serializable (a lambda captures every variable it uses)", e);
		}
		catch (IOException e) {
			throw new CodecException("cannot send a " + value.getClass().getName() + ": " + e.getMessage(), e);
		}
		return bytes.bytes();
	}

	/** Why a reader with this allow-list would refuse {@code type}, or null when it accepts it. */
	@Nullable String refusal(Class<?> type) {
		return refusals.get(type);
	}

	private final ClassValue<@Nullable String> refusals = new ClassValue<>() {
		@Override
		protected @Nullable String computeValue(Class<?> type) {
			Class<?> named = type;
			while (named.isArray()) {
				named = named.getComponentType();
			}
			if (java.lang.reflect.Proxy.isProxyClass(named)) {
				return "a proxy of " + java.util.Arrays.toString(named.getInterfaces())
						+ ", which never travels between processes: send the object behind it";
			}
			if (NEVER.checkInput(new ClassOnly(type)) == ObjectInputFilter.Status.REJECTED) {
				return "a " + named.getName() + ", which never travels between processes, whatever serial-allow says"
						+ " (reflection, process and method-handle classes)";
			}
			String unloadable = ClassOrigin.unloadableElsewhere(named);
			if (unloadable != null) {
				return unloadable;
			}
			if (filter.checkInput(new ClassOnly(type)) == ObjectInputFilter.Status.REJECTED) {
				return "a " + named.getName() + ", which other processes refuse to read: add " + advicePattern(named)
						+ " to serial-allow (for example -Dfiber.serial-allow=" + advicePattern(named) + ")";
			}
			return null;
		}
	};

	/** Why reading could not create an object of exactly {@code type} again, or null when it can. */
	private static final ClassValue<@Nullable String> CREATORS = new ClassValue<>() {
		@Override
		protected @Nullable String computeValue(Class<?> type) {
			return Creators.missing(type);
		}
	};

	/** Reads what {@link #write} wrote, refusing classes outside the allow-list. */
	<T> T read(byte[] bytes, Class<T> expected) {
		return read(bytes, 0, bytes.length, expected, null);
	}

	/**
	 * Reads what {@link #write} wrote, refusing classes outside the allow-list, with every object read replaced
	 * by what {@code resolver} makes of it: how a handle read here becomes one of the reading runtime.
	 */
	<T> T read(byte[] bytes, int offset, int length, Class<T> expected, @Nullable UnaryOperator<Object> resolver) {
		Objects.requireNonNull(bytes, "bytes");
		Objects.requireNonNull(expected, "expected");
		@Nullable String[] refused = new String[1];
		Object value;
		try (ObjectInputStream in = new ResolvingInput(new ByteArrayInputStream(bytes, offset, length), resolver)) {
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
		catch (StackOverflowError e) {
			throw new CodecException("cannot deserialize a shipped object: it is nested too deeply for this process's stack", e);
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

	/**
	 * Checks each class it writes as a reader would, and that each object written can be created again, so what
	 * a reader would refuse fails here.
	 */
	private final class CheckingOutput extends ObjectOutputStream {

		/**
		 * The refusal of an exception class, raised only once the value is written: when a write fails, the stream
		 * writes its own exception before throwing it, and that exception must reach the caller as it is.
		 */
		private @Nullable String heldBack;

		CheckingOutput(BoundedBytes bytes) throws IOException {
			super(bytes);
			enableReplaceObject(true);
		}

		@Override
		protected void annotateClass(Class<?> type) {
			String refused = refusal(type);
			if (refused == null) {
				return;
			}
			if (Throwable.class.isAssignableFrom(type)) {
				if (heldBack == null) {
					heldBack = refused;
				}
				return;
			}
			throw new CodecException("cannot send " + refused);
		}

		@Override
		protected void annotateProxyClass(Class<?> type) {
			annotateClass(type);
		}

		@Override
		protected Object replaceObject(Object written) {
			String missing = CREATORS.get(written.getClass());
			if (missing != null) {
				throw new CodecException("cannot send " + missing);
			}
			return written;
		}

		void raiseHeldBack() {
			if (heldBack != null) {
				throw new CodecException("cannot send " + heldBack);
			}
		}
	}

	/** The bytes written, refusing to grow past a limit, and handed out without a copy when they fill the buffer. */
	private static final class BoundedBytes extends ByteArrayOutputStream {

		private final long limit;

		BoundedBytes(long limit) {
			super(256);
			this.limit = limit;
		}

		@Override
		public void write(int b) {
			grow(1);
			super.write(b);
		}

		@Override
		public void write(byte[] b, int off, int len) {
			grow(len);
			super.write(b, off, len);
		}

		private void grow(int more) {
			if (count + (long) more > limit) {
				throw new UncheckedIOException(new ValueTooLargeException(limit));
			}
		}

		byte[] bytes() {
			if (buf.length == count) {
				return buf;
			}
			byte[] bytes = new byte[count];
			BulkCopy.copy(buf, 0, bytes, 0, count);
			return bytes;
		}
	}

	/** What the filter sees of a class descriptor: the class alone, within every limit. */
	private record ClassOnly(Class<?> serialClass) implements ObjectInputFilter.FilterInfo {

		@Override
		public long arrayLength() {
			return -1;
		}

		@Override
		public long depth() {
			return 1;
		}

		@Override
		public long references() {
			return 0;
		}

		@Override
		public long streamBytes() {
			return 0;
		}
	}

	/** Reads classes through the context class loader, and hands each object read to a resolver. */
	private static final class ResolvingInput extends ObjectInputStream {

		private final @Nullable UnaryOperator<Object> resolver;

		ResolvingInput(ByteArrayInputStream bytes, @Nullable UnaryOperator<Object> resolver) throws IOException {
			super(bytes);
			this.resolver = resolver;
			enableResolveObject(resolver != null);
		}

		@Override
		protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
			try {
				return Class.forName(desc.getName(), false, contextLoader());
			}
			catch (ClassNotFoundException e) {
				// A primitive type's class (int.class as a value) has no class to load: the stream knows it.
				return super.resolveClass(desc);
			}
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
