package io.fiberjvm.worker;

import java.util.List;
import java.util.Objects;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.JavaSerialization;

/**
 * A process target on its way to a child: either a class to instantiate there, or a serialized object.
 *
 * @param className the target class, created in the child through its no-argument constructor; or null
 * @param serialized the Java-serialized {@link FiberRunnable}; or null
 * @param allow the allow-list patterns for reading {@code serialized}, beyond the built-in ones
 */
public record ShippedTarget(String className, byte[] serialized, List<String> allow) {

	public ShippedTarget {
		allow = allow == null ? List.of() : List.copyOf(allow);
		if ((className == null) == (serialized == null)) {
			throw new IllegalArgumentException("a shipped target is either a class name or a serialized object");
		}
	}

	/** A target the child creates from its class. */
	public static ShippedTarget ofClass(Class<? extends Runnable> type) {
		Objects.requireNonNull(type, "type");
		try {
			type.getDeclaredConstructor();
		}
		catch (NoSuchMethodException e) {
			throw new IllegalArgumentException("target class " + type.getName() + " needs a no-argument constructor");
		}
		return new ShippedTarget(type.getName(), null, List.of());
	}

	/**
	 * A serialized target; the child may read the classes of the target's own package and {@code extraAllow}.
	 */
	public static ShippedTarget ofObject(FiberRunnable target, List<String> extraAllow) {
		Objects.requireNonNull(target, "target");
		List<String> allow = new java.util.ArrayList<>(extraAllow);
		allow.add(JavaSerialization.packagePattern(target.getClass()));
		JavaSerialization serialization = JavaSerialization.allowing(allow);
		byte[] bytes = serialization.write(target);
		// Read it back here, so a capture the child would refuse fails at start(), before any job exists.
		serialization.read(bytes, Runnable.class);
		return new ShippedTarget(null, bytes, List.of(JavaSerialization.packagePattern(target.getClass())));
	}

	/**
	 * Creates the target in this process. A serialized target is read with this process's own
	 * {@code serial-allow} patterns plus, from the sender, only patterns naming one package or class
	 * (the target's own), never wildcards over everything or filter limits.
	 */
	public Runnable materialize(List<String> localAllow) {
		if (serialized != null) {
			List<String> patterns = JavaSerialization.withSenderPatterns(localAllow, allow);
			return JavaSerialization.allowing(patterns).read(serialized, Runnable.class);
		}
		try {
			// Not initialized until it is known to be a Runnable: no static initializer of another class runs.
			Class<?> type = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
			if (!Runnable.class.isAssignableFrom(type)) {
				throw new CodecException("target class " + className + " is not a Runnable");
			}
			return (Runnable) type.getDeclaredConstructor().newInstance();
		}
		catch (ReflectiveOperationException e) {
			throw new CodecException("cannot create target " + className + " in the child: " + e, e);
		}
	}
}
