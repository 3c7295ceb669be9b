package io.fiberjvm.internal.runtime;

import java.util.List;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.runtime.RuntimeContext;

/**
 * A user's target on its way to a job-backed process: either a class the child creates with its no-argument
 * constructor, or a serialized {@link FiberRunnable} with the pattern naming its own package.
 *
 * @param className the target class; or null
 * @param serialized the Java-serialized runnable; or null
 * @param allow the allow-list patterns for reading {@code serialized}, beyond the child's own
 */
public record UserTarget(@Nullable String className, byte @Nullable [] serialized, List<String> allow) implements ProcessTarget {

	public UserTarget {
		allow = List.copyOf(allow);
		if ((className == null) == (serialized == null)) {
			throw new IllegalArgumentException("a user's target is either a class name or a serialized object");
		}
	}

	/** A target the child creates from its class. */
	public static UserTarget ofClass(Class<? extends Runnable> type) {
		Objects.requireNonNull(type, "type");
		try {
			type.getDeclaredConstructor();
		}
		catch (NoSuchMethodException e) {
			throw new IllegalArgumentException("target class " + type.getName() + " needs a no-argument constructor");
		}
		return new UserTarget(type.getName(), null, List.of());
	}

	/**
	 * A serialized target, read back here with {@code values} (this runtime's allow-list and handles), so a
	 * capture the child would refuse fails at once, before any job exists.
	 */
	public static UserTarget ofObject(FiberRunnable target, ShippedValues values) {
		Objects.requireNonNull(target, "target");
		List<String> allow = List.of(ShippedValues.packagePattern(target.getClass()));
		byte[] bytes = values.writeFunction(target, "the process's target");
		values.readFunction(bytes, allow, Runnable.class, "the process's target");
		return new UserTarget(null, bytes, allow);
	}

	@Override
	public void run(RuntimeContext runtime) {
		materialize(runtime.values()).run();
	}

	/**
	 * Creates the target in this process. A serialized target is read with this process's own allow-list plus,
	 * from the sender, only patterns naming one package or class, never wildcards over everything or filter limits.
	 */
	Runnable materialize(ShippedValues values) {
		if (serialized != null) {
			return values.readFunction(serialized, allow, Runnable.class, "the process's target");
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
