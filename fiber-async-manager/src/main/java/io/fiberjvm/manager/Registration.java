package io.fiberjvm.manager;

import java.io.Serializable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * An async interface and the class that implements it in the manager, checked when registered: every
 * method of the interface returns {@code Mono} or {@code Flux}, and the class has a public method of the
 * same name and parameters (returning a {@code Publisher}, {@code Iterable}, array or {@code Stream} for a
 * {@code Flux}).
 *
 * @param asyncInterface the interface proxies implement
 * @param implementation the class the manager instantiates
 * @param factory the serialized factory that makes instances from {@code create}'s arguments, or null
 *        to use the class's public constructors
 * @param factoryAllow the allow-list pattern for the factory's own package
 */
record Registration(String asyncInterface, String implementation, byte @Nullable [] factory, List<String> factoryAllow)
		implements Serializable {

	Registration withFactory(byte[] factory, List<String> factoryAllow) {
		return new Registration(asyncInterface, implementation, factory, List.copyOf(factoryAllow));
	}

	static Registration check(Class<?> asyncInterface, Class<?> implementation) {
		Objects.requireNonNull(asyncInterface, "asyncInterface");
		Objects.requireNonNull(implementation, "implementation");
		if (!asyncInterface.isInterface()) {
			throw new IllegalArgumentException(asyncInterface.getName() + " is not an interface; register an async interface "
					+ "whose methods return Mono or Flux, and the class that implements it");
		}
		if (!Modifier.isPublic(implementation.getModifiers()) || implementation.isInterface()
				|| Modifier.isAbstract(implementation.getModifiers())) {
			throw new IllegalArgumentException(implementation.getName() + " must be a public, concrete class to be created in a manager");
		}
		if (Arrays.stream(implementation.getConstructors()).findAny().isEmpty()) {
			throw new IllegalArgumentException(implementation.getName() + " has no public constructor to create it with");
		}
		for (Method method : asyncInterface.getMethods()) {
			if (method.isDefault() || Modifier.isStatic(method.getModifiers())) {
				continue;
			}
			Class<?> returns = method.getReturnType();
			if (returns != Mono.class && returns != Flux.class) {
				throw new IllegalArgumentException("method " + method.getName() + " of " + asyncInterface.getName() + " returns "
						+ returns.getName() + "; an async interface method returns Mono<R> or Flux<R>");
			}
			Method target;
			try {
				target = implementation.getMethod(method.getName(), method.getParameterTypes());
			}
			catch (NoSuchMethodException e) {
				throw new IllegalArgumentException(implementation.getName() + " has no public method " + method.getName()
						+ Arrays.toString(method.getParameterTypes()).replace('[', '(').replace(']', ')') + " for "
						+ asyncInterface.getSimpleName() + "." + method.getName());
			}
			if (returns == Flux.class && !isSequence(target.getReturnType())) {
				throw new IllegalArgumentException(implementation.getName() + "." + method.getName() + " returns "
						+ target.getReturnType().getName() + ", but " + asyncInterface.getSimpleName() + "." + method.getName()
						+ " is a Flux: return a Publisher (a Flux), an Iterable, an array or a Stream");
			}
		}
		return new Registration(asyncInterface.getName(), implementation.getName(), null, List.of());
	}

	static boolean isSequence(Class<?> type) {
		return Iterable.class.isAssignableFrom(type) || type.isArray() || Stream.class.isAssignableFrom(type)
				|| org.reactivestreams.Publisher.class.isAssignableFrom(type);
	}

	/** The names of a method's parameter types, which pick the implementation's method in the manager. */
	static List<String> parameterTypes(Method method) {
		return Arrays.stream(method.getParameterTypes()).map(Class::getName).toList();
	}
}
