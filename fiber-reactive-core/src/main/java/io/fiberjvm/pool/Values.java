package io.fiberjvm.pool;

import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.JavaSerialization;

/**
 * Task arguments and results as bytes: Java serialization, read behind this process's allow-list plus
 * the packages the sender names for the value's own class.
 */
final class Values {

	private final List<String> localAllow;
	private final JavaSerialization writer;
	private final Map<List<String>, JavaSerialization> readers = new ConcurrentHashMap<>();

	Values(List<String> localAllow) {
		this.localAllow = List.copyOf(localAllow);
		this.writer = JavaSerialization.allowing(this.localAllow);
	}

	/** The bytes of {@code value} ({@code null} for null); {@code what} names it in the error. */
	byte[] write(Object value, String what) {
		if (value == null) {
			return null;
		}
		if (!(value instanceof Serializable serializable)) {
			throw new CodecException(what + " is a " + value.getClass().getName() + ", which is not Serializable");
		}
		try {
			return writer.write(serializable);
		}
		catch (CodecException e) {
			throw new CodecException(what + ": " + e.getMessage(), e);
		}
	}

	/** The allow-list pattern a reader needs for the value's own class, or null for none. */
	static String allowFor(Object value) {
		return value == null ? null : JavaSerialization.packagePattern(value.getClass());
	}

	Object read(byte[] bytes, List<String> senderAllow, String what) {
		if (bytes == null) {
			return null;
		}
		JavaSerialization reader = readers.computeIfAbsent(List.copyOf(senderAllow),
				sender -> JavaSerialization.allowing(JavaSerialization.withSenderPatterns(localAllow, sender)));
		try {
			return reader.read(bytes, Object.class);
		}
		catch (CodecException e) {
			throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
		}
	}

	/** Reads a shipped function or initializer. */
	<T> T readFunction(byte[] bytes, List<String> senderAllow, Class<T> type, String what) {
		JavaSerialization reader = readers.computeIfAbsent(List.copyOf(senderAllow),
				sender -> JavaSerialization.allowing(JavaSerialization.withSenderPatterns(localAllow, sender)));
		try {
			return reader.read(bytes, type);
		}
		catch (CodecException e) {
			throw new CodecException(what + " cannot be read: " + e.getMessage(), e);
		}
	}
}
