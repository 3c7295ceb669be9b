package io.fiberjvm.manager;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.CallFrame;

/**
 * How a manager makes an object a creation call asks for: with its registration's factory, or with the public
 * constructor of the registered class that takes the call's arguments (boxed numbers widening as Java widens them).
 */
final class Construction {

	private Construction() {
	}

	/** The object {@code call} asks for, of a class in {@code registrations}; fails naming what does not fit. */
	@SuppressWarnings("unchecked")
	static Object construct(List<Registration> registrations, CallFrame call, ShippedValues values) throws Exception {
		Registration registration = registrations.stream().filter(r -> r.implementation().equals(call.name())).findFirst()
				.orElseThrow(() -> new IllegalArgumentException(call.name() + " is not a class registered with this manager"));
		Class<?> type = Class.forName(call.name(), true, Thread.currentThread().getContextClassLoader());
		@Nullable Object[] args = new Object[call.args().size()];
		for (int i = 0; i < args.length; i++) {
			int index = i;
			args[i] = call.argument(index, values, "argument " + index + " of the constructor of " + call.name());
		}
		if (registration.factory() != null) {
			java.util.function.Function<@Nullable Object[], Object> factory = values.readFunction(
					registration.factory(), registration.factoryAllow(), java.util.function.Function.class, "the factory of " + call.name());
			Object made = factory.apply(args);
			if (!type.isInstance(made)) {
				throw new IllegalStateException("the factory of " + call.name() + " made a "
						+ (made == null ? "null" : made.getClass().getName()) + ", not a " + call.name());
			}
			return made;
		}
		for (Constructor<?> constructor : type.getConstructors()) {
			if (accepts(constructor.getParameterTypes(), args)) {
				try {
					return constructor.newInstance(args);
				}
				catch (InvocationTargetException e) {
					throw e.getCause() instanceof Exception cause ? cause : e;
				}
			}
		}
		throw new IllegalArgumentException(call.name() + " has no public constructor that takes "
				+ Arrays.stream(args).map(a -> a == null ? "null" : a.getClass().getSimpleName()).toList());
	}

	private static boolean accepts(Class<?>[] parameters, @Nullable Object[] args) {
		if (parameters.length != args.length) {
			return false;
		}
		for (int i = 0; i < args.length; i++) {
			Class<?> type = parameters[i].isPrimitive() ? boxed(parameters[i]) : parameters[i];
			if (args[i] == null ? parameters[i].isPrimitive() : !type.isInstance(args[i]) && !widens(args[i], parameters[i])) {
				return false;
			}
		}
		return true;
	}

	/** Whether a boxed number widens to a primitive parameter, as Java widens {@code int} to {@code long}. */
	private static boolean widens(Object arg, Class<?> parameter) {
		if (!parameter.isPrimitive() || !(arg instanceof Number || arg instanceof Character)) {
			return false;
		}
		String[] order = {"byte", "short", "int", "long", "float", "double"};
		java.util.List<String> ranks = java.util.List.of(order);
		String from = switch (arg.getClass().getSimpleName()) {
			case "Byte" -> "byte";
			case "Short" -> "short";
			case "Character", "Integer" -> "int";
			case "Long" -> "long";
			case "Float" -> "float";
			case "Double" -> "double";
			default -> null;
		};
		return from != null && ranks.contains(parameter.getName()) && ranks.indexOf(from) <= ranks.indexOf(parameter.getName());
	}

	private static Class<?> boxed(Class<?> primitive) {
		return java.lang.invoke.MethodType.methodType(primitive).wrap().returnType();
	}
}
