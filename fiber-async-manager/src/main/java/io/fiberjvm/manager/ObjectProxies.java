package io.fiberjvm.manager;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.internal.frames.CallFrame;

/**
 * The proxies a program calls a manager's objects through: each object is numbered, made by its first call, and
 * each proxy method sends a call (or, returning {@code Flux}, a call whose result is a sequence) on the session.
 */
final class ObjectProxies {

	private final String name;
	private final Map<String, Registration> registrations;
	private final ManagerSession session;
	private final AtomicLong objects = new AtomicLong();
	/** Why the objects' creations failed here, before they were sent: every call on them fails with it. */
	private final Map<Long, Throwable> unsent = new ConcurrentHashMap<>();
	/** Each interface method's parameter types as calls name them, made once rather than at every call. */
	private final Map<Method, List<String>> parameterTypes = new ConcurrentHashMap<>();

	ObjectProxies(String name, Map<String, Registration> registrations, ManagerSession session) {
		this.name = name;
		this.registrations = registrations;
		this.session = session;
	}

	/** A proxy of {@code asyncInterface} for a new object made from {@code args}; its creation is its first call. */
	<A> A create(Class<A> asyncInterface, Object... args) {
		Registration registration = registrations.get(asyncInterface.getName());
		if (registration == null) {
			throw new IllegalArgumentException(asyncInterface.getName() + " is not registered with manager " + name
					+ "; register it (with its implementation) before start(). Registered: " + registrations.keySet());
		}
		long object = objects.incrementAndGet();
		String label = asyncInterface.getSimpleName() + "#" + object + " in manager " + name;
		// The creation is the object's first call: calls made on the proxy queue behind it.
		Mono<Object> created = session.send(CallFrame.Mode.CREATE, object, registration.implementation(), List.of(),
				args == null ? new Object[0] : args, "creating " + label);
		created.subscribe(done -> { }, error -> {
			if (error instanceof CodecException) {
				unsent.put(object, error);
			}
		});
		Throwable refused = unsent.get(object);
		if (refused != null) {
			// An argument that cannot travel: say so now, naming it, rather than on every call.
			throw (RuntimeException) refused;
		}
		Object proxy = Proxy.newProxyInstance(asyncInterface.getClassLoader(), new Class<?>[] {asyncInterface},
				(self, method, callArgs) -> invoke(self, method, callArgs, object, label));
		return asyncInterface.cast(proxy);
	}

	private Object invoke(Object self, Method method, Object[] args, long object, String label) throws Throwable {
		if (method.isDefault()) {
			// A default method is the interface's own code: it runs here, calling the proxy's other methods.
			return java.lang.reflect.InvocationHandler.invokeDefault(self, method, args);
		}
		if (method.getDeclaringClass() == Object.class) {
			return switch (method.getName()) {
				case "toString" -> label;
				case "hashCode" -> System.identityHashCode(self);
				case "equals" -> self == args[0];
				default -> throw new UnsupportedOperationException(method.getName());
			};
		}
		Object[] given = args == null ? new Object[0] : args;
		String what = method.getName() + " on " + label;
		List<String> types = parameterTypes.computeIfAbsent(method, Registration::parameterTypes);
		if (method.getReturnType() == Flux.class) {
			return session.stream(object, method.getName(), types, given, what)
					.name("fiber.manager.stream").tag("manager", name).tag("method", method.getName());
		}
		return session.send(CallFrame.Mode.CALL, object, method.getName(), types, given, what)
				// Named and tagged for Reactor's metrics (tap(Micrometer.metrics(registry))).
				.name("fiber.manager.call").tag("manager", name).tag("method", method.getName());
	}
}
