package io.fiberjvm.codec;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.BulkCopy;

/**
 * The one codec of a run: how every value travels between its processes (pool task arguments and results,
 * queue items, manager calls and results, shared objects, ring values) and how functions and targets travel.
 *
 * <p>A value is a tag byte, then either a compact form for the types tasks pass most (boxed numbers, strings,
 * primitive arrays, records of those), which costs far less than Java serialization, or Java serialization behind the run's
 * allow-list: the built-in patterns, the program's own package tree and {@code serial-allow}. Every process of a
 * run reads with the same list, and writing checks each class against it, so a value another process would
 * refuse, or could not create again, fails at the sender's call with a one-line {@link CodecException} naming
 * the class and the fix. A function or target may also name its own class's package, which its reader admits
 * for that function alone.
 *
 * <p>One instance belongs to one runtime: every object it reads passes through that runtime's resolver, which
 * turns handles (a queue's, a shared object's) into handles of the reading runtime.
 */
public final class ShippedValues implements Codec {

	/** The largest value a run sends unless {@code max-value-size} says otherwise: 2046 MiB. */
	public static final long DEFAULT_MAX_VALUE_SIZE = 2046L << 20;

	/** The size from which {@link #writeAfter} leaves room in front of a value. */
	public static final int ROOMY = 64 << 10;

	/** What a refusal of a value too large advises first. */
	private static final String RAISE = "raise fiber.max-value-size (at most 2046Mi)";

	private final List<String> localAllow;
	private final @Nullable UnaryOperator<Object> resolver;
	private final long maxValueSize;
	private final JavaSerialization values;
	private final CompactRecords records;
	private final Map<List<String>, JavaSerialization> withSender = new ConcurrentHashMap<>();
	private final EncodingArrays arrays = new EncodingArrays();

	/** Reads and writes with the run's allow-list patterns beside the built-in ones; resolves nothing. */
	public ShippedValues(List<String> localAllow) {
		this(localAllow, null);
	}

	/**
	 * Reads and writes with the run's allow-list patterns beside the built-in ones, and replaces each object read
	 * with what {@code resolver} makes of it.
	 */
	public ShippedValues(List<String> localAllow, @Nullable UnaryOperator<Object> resolver) {
		this(localAllow, resolver, DEFAULT_MAX_VALUE_SIZE);
	}

	/**
	 * As {@link #ShippedValues(List, UnaryOperator)}, refusing to write a value whose bytes would be more than
	 * {@code maxValueSize} ({@code max-value-size}).
	 */
	public ShippedValues(List<String> localAllow, @Nullable UnaryOperator<Object> resolver, long maxValueSize) {
		if (maxValueSize < 1 || maxValueSize > DEFAULT_MAX_VALUE_SIZE) {
			throw new IllegalArgumentException("maxValueSize " + maxValueSize + " is not between 1 and " + DEFAULT_MAX_VALUE_SIZE);
		}
		this.localAllow = List.copyOf(localAllow);
		this.resolver = resolver;
		this.maxValueSize = maxValueSize;
		this.values = JavaSerialization.allowing(this.localAllow);
		this.records = new CompactRecords(values);
	}

	/** The allow-list pattern that admits the package of {@code type}: {@code com.acme.*}. */
	public static String packagePattern(Class<?> type) {
		return JavaSerialization.packagePattern(Objects.requireNonNull(type, "type"));
	}

	/**
	 * Whether {@code in} is reading for a runtime, which resolves the handles it reads: a handle's
	 * {@code readObject} refuses any other stream, with an error saying so.
	 */
	public static boolean resolvesHandles(java.io.ObjectInputStream in) {
		return JavaSerialization.resolves(in);
	}

	/**
	 * The bytes of {@code value} ({@code null} for null), refused here when another process of the run could not
	 * read it; {@code what} names it in an error (its text is made only then).
	 */
	public byte @Nullable [] write(@Nullable Object value, Object what) {
		return write(value, what, null);
	}

	/**
	 * As {@link #write(Object, Object)}, with a value of a compact form (an array of numbers or bytes, a number, a
	 * text) written into an array of exactly its size from {@code arrays}, a pool of the caller's, say, which all of
	 * it fills; into a new array when there are no {@code arrays} or they give none (null). Other values are
	 * written into new arrays of the codec's making.
	 */
	public byte @Nullable [] write(@Nullable Object value, Object what, @Nullable IntFunction<byte @Nullable []> arrays) {
		if (value == null) {
			return null;
		}
		if (value instanceof String text) {
			// At least a byte per char, so a text too long is refused before any is written; its exact size is
			// known once it is.
			checkSize(text.length(), value, what);
			byte[] bytes = CompactValues.write(text, 0, arrays);
			checkSize(bytes.length, value, what);
			return bytes;
		}
		long compactSize = CompactValues.sizeOf(value);
		if (compactSize >= 0) {
			checkSize(compactSize, value, what);
			return CompactValues.write(value, 0, arrays);
		}
		if (!(value instanceof Serializable serializable)) {
			throw new CodecException(what + " is a " + value.getClass().getName()
					+ ", which is not Serializable: make it implement java.io.Serializable");
		}
		try {
			byte[] compact = value instanceof Record record ? records.write(record, maxValueSize) : null;
			// The tag byte first, so the bytes written are the value's bytes with no copy.
			return compact != null ? compact : values.write(serializable, CompactValues.SERIALIZED, maxValueSize);
		}
		catch (ValueTooLargeException e) {
			throw new CodecException(what + " (a " + value.getClass().getName() + ") is more than " + maxValueSize
					+ " bytes, which max-value-size allows; " + RAISE + " or send it in parts", e);
		}
		catch (CodecException e) {
			throw new CodecException(what + ": " + e.getMessage(), e);
		}
	}

	/**
	 * The bytes of {@code value} as {@link #write} makes them ({@code null} for null), in a buffer positioned at
	 * them. A large value of a compact form (an array of numbers or bytes taking {@value #ROOMY} bytes or more) has
	 * {@code room} bytes left free in front of it in the buffer's array, where a frame can put its header, so that
	 * the value travels where it was written instead of being copied into its frame; other values have none.
	 */
	public @Nullable ByteBuffer writeAfter(int room, @Nullable Object value, Object what) {
		if (room < 0) {
			throw new IllegalArgumentException("room " + room + " is negative");
		}
		if (value != null && !(value instanceof String)) {
			long size = CompactValues.sizeOf(value);
			if (size >= ROOMY) {
				checkSize(size, value, what);
				return ByteBuffer.wrap(CompactValues.write(value, room, arrays::take)).position(room);
			}
		}
		byte[] bytes = write(value, what);
		return bytes == null ? null : ByteBuffer.wrap(bytes);
	}

	/**
	 * Takes back the array of a value {@link #writeAfter} wrote, once nothing reads it any more (its task answered,
	 * its frame written), so that the next large value of its size is written into it instead of into a new array
	 * the JVM zeroes first; any other buffer is ignored. The caller gives up the buffer with it.
	 */
	public void giveBack(@Nullable ByteBuffer encoded) {
		if (encoded != null && encoded.hasArray()) {
			arrays.giveBack(encoded.array());
		}
	}

	/**
	 * Refuses values that travel together in one message (a task's function and argument, a call's arguments)
	 * when together they are more than {@code max-value-size} allows; {@code what} names them.
	 */
	public void checkTogether(long bytes, Object what) {
		if (bytes > maxValueSize) {
			throw new CodecException(what + " are " + bytes + " bytes together, more than " + maxValueSize
					+ ", which max-value-size allows for one message; " + RAISE + ", "
					+ "or share the large part with fiber.share");
		}
	}

	/** Refuses what {@code what} names, {@code bytes} bytes that travel as one value, when max-value-size allows fewer. */
	public void checkSize(long bytes, Object what) {
		if (bytes > maxValueSize) {
			throw new CodecException(what + " is " + bytes + " bytes, more than " + maxValueSize + ", which max-value-size allows; "
					+ RAISE);
		}
	}

	private void checkSize(long size, Object value, Object what) {
		if (size > maxValueSize) {
			throw new CodecException(what + " (a " + value.getClass().getSimpleName() + ") is " + size + " bytes, more than "
					+ maxValueSize + ", which max-value-size allows; " + RAISE + " or send it in parts");
		}
	}

	/**
	 * The value whose bytes, as {@link #write} makes them, start with {@code first} and have {@code rest} more bytes,
	 * read while those arrive, when it is an array of numbers or bytes: its runs go straight into the array. Null
	 * for any other value, and for bytes that make no such array; their bytes are read whole, which says why.
	 */
	public @Nullable ArrivingArray arriving(byte first, int rest) {
		return CompactValues.arriving(first, rest);
	}

	/** Reads what {@link #write} wrote. */
	public @Nullable Object read(byte @Nullable [] bytes, Object what) {
		return bytes == null ? null : read(bytes, 0, bytes.length, what);
	}

	/**
	 * Reads what {@link #write} wrote from the remaining bytes of {@code bytes}, in place (a slice of the frame
	 * it arrived in, say), without moving its position.
	 */
	public @Nullable Object read(@Nullable ByteBuffer bytes, Object what) {
		if (bytes == null) {
			return null;
		}
		if (bytes.hasArray()) {
			return read(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining(), what);
		}
		byte[] copy = new byte[bytes.remaining()];
		BulkCopy.get(bytes.duplicate(), copy, 0, copy.length);
		return read(copy, 0, copy.length, what);
	}

	private @Nullable Object read(byte[] bytes, int offset, int length, Object what) {
		if (length == 0) {
			throw new CodecException(what + " cannot be read: it is empty");
		}
		if (bytes[offset] != CompactValues.SERIALIZED) {
			try {
				return bytes[offset] == CompactValues.RECORD ? records.read(bytes, offset, length, resolver)
						: CompactValues.read(bytes, offset, length);
			}
			catch (RuntimeException e) {
				throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
			}
		}
		try {
			return values.read(bytes, offset + 1, length - 1, Object.class, resolver);
		}
		catch (CodecException e) {
			throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
		}
	}

	@Override
	public byte[] encode(Object value) {
		return Objects.requireNonNull(write(Objects.requireNonNull(value, "value"), "the value"));
	}

	@Override
	public <T> T decode(byte[] bytes, Class<T> type) {
		Objects.requireNonNull(bytes, "bytes");
		Objects.requireNonNull(type, "type");
		String what = "a " + type.getName();
		Object value = read(bytes, what);
		if (!type.isInstance(value)) {
			throw new CodecException(what + " was expected, but the value is " + (value == null ? "null" : "a " + value.getClass().getName()));
		}
		return type.cast(value);
	}

	/**
	 * The Java-serialized bytes of a function, initializer or target, for {@link #readFunction} with
	 * {@link #packagePattern} of its class.
	 */
	public byte[] writeFunction(Serializable function, String what) {
		try {
			return serialization(List.of(packagePattern(function.getClass()))).write(function, null, maxValueSize);
		}
		catch (ValueTooLargeException e) {
			throw new CodecException(what + " is more than " + maxValueSize + " bytes, which max-value-size allows, with "
					+ "what it captures; " + RAISE + ", or pass large data as an argument or share it", e);
		}
		catch (CodecException e) {
			throw new CodecException(what + ": " + e.getMessage(), e);
		}
	}

	/** Reads a shipped function, initializer or target as {@code type}, admitting the packages its sender named. */
	public <T> T readFunction(byte[] bytes, List<String> senderAllow, Class<T> type, String what) {
		try {
			return serialization(senderAllow).read(bytes, 0, bytes.length, type, resolver);
		}
		catch (CodecException e) {
			throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
		}
	}

	private JavaSerialization serialization(List<String> senderAllow) {
		if (senderAllow.isEmpty()) {
			return values;
		}
		if (withSender.size() > 1024) {
			// Each distinct set of sender packages makes a reader; never let that grow without end.
			withSender.clear();
		}
		return withSender.computeIfAbsent(List.copyOf(senderAllow),
				sender -> JavaSerialization.allowing(JavaSerialization.withSenderPatterns(localAllow, sender)));
	}
}
