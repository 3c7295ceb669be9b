package io.fiberjvm.codec;

import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

/**
 * The compact form of a record whose components are all compact values (numbers, texts, arrays of numbers or
 * bytes, null) or such records: the tag {@link CompactValues#RECORD}, the class's name, then each component's
 * length and compact bytes, read back through the canonical constructor, as Java serialization reads a record.
 *
 * <p>It takes a fraction of Java serialization's time and bytes. Classes pass the same allow-list on both sides as
 * serialized ones do. A record Java serialization would treat otherwise (one with {@code writeReplace} or
 * {@code readResolve}), one that is not {@code Serializable}, one nested more than {@value #DEPTH} deep, one
 * holding the same array or record twice (which Java serialization sends once and reads back shared), or a text
 * with a lone surrogate is not written here. Components are the record's fields, as Java serialization takes them.
 */
final class CompactRecords {

	/** The deepest nesting of records written here. */
	static final int DEPTH = 16;

	/**
	 * How a record class is taken apart and made again: its components' types, and the classes their values are read
	 * as (a primitive's box); {@code why} says why it has no compact form, if it has none.
	 */
	private record Shape(Class<?> type, byte[] name, Field[] fields, Class<?>[] types, Class<?>[] accepted,
			@Nullable Constructor<?> canonical, @Nullable String why) {
	}

	private final JavaSerialization allowList;
	private final ClassValue<Shape> shapes = new ClassValue<>() {
		@Override
		protected Shape computeValue(Class<?> type) {
			return shape(type);
		}
	};
	/** Classes read by name, with the loader that found them. */
	private final Map<String, Map.Entry<ClassLoader, Class<?>>> named = new ConcurrentHashMap<>();

	CompactRecords(JavaSerialization allowList) {
		this.allowList = allowList;
	}

	/**
	 * The compact bytes of {@code value}, or null when it has no compact form and goes through Java serialization;
	 * fails when they would be more than {@code maxSize} bytes.
	 */
	byte @Nullable [] write(Record value, long maxSize) throws ValueTooLargeException {
		List<Object> parts = new ArrayList<>();
		long size = plan(value, parts, new ArrayList<>(), 0);
		if (size < 0) {
			return null;
		}
		if (size > maxSize) {
			throw new ValueTooLargeException(maxSize);
		}
		ByteBuffer out = ByteBuffer.allocate(Math.toIntExact(size));
		for (Object part : parts) {
			if (part instanceof Length length) {
				out.putInt(length.bytes());
			}
			else if (part instanceof Shape shape) {
				out.put(CompactValues.RECORD).putShort((short) shape.name().length).put(shape.name()).put((byte) shape.fields().length);
			}
			else if (part instanceof Utf8 text) {
				CompactValues.put(out, text.value(), text.bytes());
			}
			else {
				CompactValues.put(out, part, null);
			}
		}
		return out.array();
	}

	/** A text and its UTF-8 bytes, made while sizing. */
	private record Utf8(String value, byte[] bytes) {
	}

	/** A component's length in bytes, -1 for null. */
	private record Length(int bytes) {
	}

	/**
	 * Adds to {@code parts} what writing {@code value} takes, in order (a shape for a record's head, a length, a
	 * value), and returns its size; -1 when it has no compact form. {@code seen} holds the records and arrays met
	 * so far: one met twice is shared, which only Java serialization keeps.
	 */
	private long plan(Record value, List<Object> parts, List<Object> seen, int depth) {
		Shape shape = shapes.get(value.getClass());
		if (shape.why() != null || depth >= DEPTH || seenBefore(value, seen)) {
			return -1;
		}
		parts.add(shape);
		long size = 1 + 2 + shape.name().length + 1;
		for (Field field : shape.fields()) {
			Object component;
			try {
				// The field, as Java serialization reads a record, not an accessor that may say otherwise.
				component = field.get(value);
			}
			catch (IllegalAccessException e) {
				return -1;
			}
			int lengthAt = parts.size();
			parts.add(new Length(-1));
			size += 4;
			if (component == null) {
				continue;
			}
			long componentSize;
			if (component instanceof Record nested) {
				componentSize = plan(nested, parts, seen, depth + 1);
			}
			else if (component instanceof String text) {
				if (!wellFormed(text)) {
					// UTF-8 would turn a lone surrogate into '?'; Java serialization keeps it.
					return -1;
				}
				byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
				parts.add(new Utf8(text, utf8));
				componentSize = 1 + (long) utf8.length;
			}
			else {
				componentSize = CompactValues.sizeOf(component);
				if (component.getClass().isArray() && seenBefore(component, seen)) {
					return -1;
				}
				parts.add(component);
			}
			if (componentSize < 0 || componentSize > Integer.MAX_VALUE) {
				return -1;
			}
			parts.set(lengthAt, new Length((int) componentSize));
			size += componentSize;
		}
		return size;
	}

	/** Whether {@code object} is in {@code seen} (by identity); adds it when it is not. */
	private static boolean seenBefore(Object object, List<Object> seen) {
		for (Object earlier : seen) {
			if (earlier == object) {
				return true;
			}
		}
		seen.add(object);
		return false;
	}

	/** Whether every surrogate in {@code text} is one of a pair, so its UTF-8 bytes say it exactly. */
	private static boolean wellFormed(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Reads the record whose compact bytes are {@code length} bytes of {@code bytes} from {@code offset}; every record
	 * read, nested ones first, is replaced by what {@code resolver} makes of it, as Java serialization's objects are.
	 */
	Object read(byte[] bytes, int offset, int length, @Nullable UnaryOperator<Object> resolver) {
		return read(ByteBuffer.wrap(bytes, offset, length).slice(), 0, resolver);
	}

	private Object read(ByteBuffer in, int depth, @Nullable UnaryOperator<Object> resolver) {
		if (depth >= DEPTH) {
			throw new CodecException("a record nested more than " + DEPTH + " deep, which no sender writes compactly");
		}
		in.get();
		byte[] name = new byte[in.getShort() & 0xffff];
		in.get(name);
		Shape shape = shapes.get(type(new String(name, StandardCharsets.UTF_8)));
		if (shape.why() != null) {
			throw new CodecException("cannot read a " + shape.type().getName() + ": " + shape.why());
		}
		int count = in.get() & 0xff;
		if (count != shape.types().length) {
			throw new CodecException("a " + shape.type().getName() + " came with " + count + " components; this process's has "
					+ shape.types().length + " (is every process of the run on the same classpath?)");
		}
		Object[] args = new Object[count];
		for (int i = 0; i < count; i++) {
			int size = in.getInt();
			Class<?> expected = shape.types()[i];
			if (size < -1) {
				throw new CodecException("component " + i + " of a " + shape.type().getName() + " says it has " + size + " bytes");
			}
			if (size == -1) {
				if (expected.isPrimitive()) {
					throw new CodecException("component " + i + " of a " + shape.type().getName() + " came as null, but it is a " + expected);
				}
				continue;
			}
			ByteBuffer part = in.slice().limit(size);
			in.position(in.position() + size);
			Object component = part.get(0) == CompactValues.RECORD ? read(part, depth + 1, resolver)
					: CompactValues.read(part.array(), part.arrayOffset(), size);
			if (!shape.accepted()[i].isInstance(component)) {
				throw new CodecException("component " + i + " of a " + shape.type().getName() + " came as a "
						+ component.getClass().getName() + ", not a " + expected.getName());
			}
			args[i] = component;
		}
		if (in.hasRemaining()) {
			throw new CodecException("a " + shape.type().getName() + " came with " + in.remaining() + " bytes more than its components");
		}
		Object made;
		try {
			made = java.util.Objects.requireNonNull(shape.canonical()).newInstance(args);
		}
		catch (InvocationTargetException e) {
			throw new CodecException("the constructor of " + shape.type().getName() + " refused what arrived: " + e.getCause(), e);
		}
		catch (ReflectiveOperationException e) {
			throw new CodecException("cannot make a " + shape.type().getName() + ": " + e, e);
		}
		return resolver == null ? made : resolver.apply(made);
	}

	/** The class named, through the context loader, refused unless the allow-list admits it. */
	private Class<?> type(String name) {
		ClassLoader loader = Thread.currentThread().getContextClassLoader();
		if (loader == null) {
			loader = CompactRecords.class.getClassLoader();
		}
		Map.Entry<ClassLoader, Class<?>> found = named.get(name);
		if (found == null || found.getKey() != loader) {
			try {
				found = Map.entry(loader, Class.forName(name, false, loader));
			}
			catch (ClassNotFoundException e) {
				throw new CodecException("cannot read a " + name + ": no such class here (is every process of the run on the same classpath?)", e);
			}
			if (named.size() > 4096) {
				named.clear();
			}
			named.put(name, found);
		}
		Class<?> type = found.getValue();
		String refused = allowList.refusal(type);
		if (refused != null) {
			throw new CodecException("refused to read " + refused);
		}
		return type;
	}

	private Shape shape(Class<?> type) {
		byte[] name = type.getName().getBytes(StandardCharsets.UTF_8);
		RecordComponent[] components = type.getRecordComponents();
		String why = components == null ? "it is not a record"
				: !Serializable.class.isAssignableFrom(type) ? "it is not Serializable"
				: declares(type, "writeReplace") || declares(type, "readResolve") ? "it replaces itself when serialized"
				: components.length > 255 ? "it has more than 255 components"
				: name.length > 65535 ? "its name is too long"
				: allowList.refusal(type);
		if (why != null || components == null) {
			return new Shape(type, name, new Field[0], new Class<?>[0], new Class<?>[0], null, why);
		}
		Field[] fields = new Field[components.length];
		Class<?>[] types = new Class<?>[components.length];
		Class<?>[] accepted = new Class<?>[components.length];
		try {
			for (int i = 0; i < components.length; i++) {
				fields[i] = type.getDeclaredField(components[i].getName());
				fields[i].setAccessible(true);
				types[i] = components[i].getType();
				accepted[i] = types[i].isPrimitive() ? java.lang.invoke.MethodType.methodType(types[i]).wrap().returnType() : types[i];
			}
			Constructor<?> canonical = type.getDeclaredConstructor(types);
			canonical.setAccessible(true);
			return new Shape(type, name, fields, types, accepted, canonical, null);
		}
		catch (ReflectiveOperationException | RuntimeException e) {
			return new Shape(type, name, new Field[0], new Class<?>[0], new Class<?>[0], null, "its constructor or fields cannot be reached (" + e + ")");
		}
	}

	private static boolean declares(Class<?> type, String method) {
		try {
			type.getDeclaredMethod(method);
			return true;
		}
		catch (NoSuchMethodException e) {
			return false;
		}
	}
}
