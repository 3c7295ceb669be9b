package io.fiberjvm.codec;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * How values, functions and targets travel between the processes of a run (pool task arguments and results,
 * manager calls, ring values, shipped lambdas): a tag byte, then either a compact form for the types tasks
 * pass most (boxed numbers, strings, primitive arrays), which costs far less than Java serialization, or Java
 * serialization read behind this process's allow-list plus the packages the sender names for the value's own
 * class (never wildcards over everything).
 *
 * <p>One instance belongs to one runtime: every object it reads passes through that runtime's resolver, which
 * turns handles (a queue's, a shared object's) into handles of the reading runtime.
 */
public final class ShippedValues {

	private final List<String> localAllow;
	private final @Nullable UnaryOperator<Object> resolver;
	private final JavaSerialization writer;
	private final Map<List<String>, JavaSerialization> readers = new ConcurrentHashMap<>();

	/** Reads with this process's allow-list patterns ({@code fiber.serial-allow}) plus the built-in ones; resolves nothing. */
	public ShippedValues(List<String> localAllow) {
		this(localAllow, null);
	}

	/**
	 * Reads with this process's allow-list patterns plus the built-in ones, and replaces each object read with
	 * what {@code resolver} makes of it.
	 */
	public ShippedValues(List<String> localAllow, @Nullable UnaryOperator<Object> resolver) {
		this.localAllow = List.copyOf(localAllow);
		this.resolver = resolver;
		this.writer = JavaSerialization.allowing(this.localAllow);
	}

	/** The allow-list pattern that admits the package of {@code type}: {@code com.acme.*}. */
	public static String packagePattern(Class<?> type) {
		return JavaSerialization.packagePattern(Objects.requireNonNull(type, "type"));
	}

	/** The allow-list pattern a reader needs for the value's own class, or null for none. */
	public static @Nullable String allowFor(@Nullable Object value) {
		return value == null || CompactValues.handles(value) ? null : JavaSerialization.packagePattern(value.getClass());
	}

	/**
	 * Whether {@code in} is reading for a runtime, which resolves the handles it reads: a handle's
	 * {@code readObject} refuses any other stream, with an error saying so.
	 */
	public static boolean resolvesHandles(java.io.ObjectInputStream in) {
		return JavaSerialization.resolves(in);
	}

	/** The bytes of {@code value} ({@code null} for null); {@code what} names it in an error (its text is made only then). */
	public byte @Nullable [] write(@Nullable Object value, Object what) {
		if (value == null) {
			return null;
		}
		byte[] compact = CompactValues.write(value);
		if (compact != null) {
			return compact;
		}
		if (!(value instanceof Serializable serializable)) {
			throw new CodecException(what + " is a " + value.getClass().getName() + ", which is not Serializable");
		}
		byte[] serialized;
		try {
			serialized = writer.write(serializable);
		}
		catch (CodecException e) {
			throw new CodecException(what + ": " + e.getMessage(), e);
		}
		byte[] tagged = new byte[serialized.length + 1];
		tagged[0] = CompactValues.SERIALIZED;
		System.arraycopy(serialized, 0, tagged, 1, serialized.length);
		return tagged;
	}

	/** Reads what {@link #write} wrote; the sender's patterns name the packages of the value's classes. */
	public @Nullable Object read(byte @Nullable [] bytes, List<String> senderAllow, Object what) {
		if (bytes == null) {
			return null;
		}
		if (bytes.length == 0) {
			throw new CodecException(what + " cannot be read: it is empty");
		}
		if (bytes[0] != CompactValues.SERIALIZED) {
			try {
				return CompactValues.read(bytes);
			}
			catch (RuntimeException e) {
				throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
			}
		}
		try {
			return reader(senderAllow).read(java.util.Arrays.copyOfRange(bytes, 1, bytes.length), Object.class, resolver);
		}
		catch (CodecException e) {
			throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
		}
	}

	/** The Java-serialized bytes of a function, initializer or target, for {@link #readFunction}. */
	public byte[] writeFunction(Serializable function, String what) {
		try {
			return writer.write(function);
		}
		catch (CodecException e) {
			throw new CodecException(what + ": " + e.getMessage(), e);
		}
	}

	/** Reads a shipped function, initializer or target as {@code type}. */
	public <T> T readFunction(byte[] bytes, List<String> senderAllow, Class<T> type, String what) {
		try {
			return reader(senderAllow).read(bytes, type, resolver);
		}
		catch (CodecException e) {
			throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
		}
	}

	private JavaSerialization reader(List<String> senderAllow) {
		if (readers.size() > 1024) {
			// Each distinct set of sender packages makes a reader; never let that grow without end.
			readers.clear();
		}
		return readers.computeIfAbsent(List.copyOf(senderAllow),
				sender -> JavaSerialization.allowing(JavaSerialization.withSenderPatterns(localAllow, sender)));
	}
}
