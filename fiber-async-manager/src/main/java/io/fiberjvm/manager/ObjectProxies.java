package io.fiberjvm.manager;

import java.lang.ref.Cleaner;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.CallFrame;
import io.fiberjvm.internal.frames.DemandFrame;

/**
 * The proxies a program calls a manager's objects through: each object is numbered, made by its first call, and
 * each proxy method sends a call (or, returning {@code Flux}, a call whose result is a sequence) on the session.
 */
final class ObjectProxies {

	/** Tells a manager when a proxy of its is unreachable; one daemon thread for the process, idle but for that. */
	private static final Cleaner PROXIES_GONE = Cleaner.create(task -> {
		Thread thread = new Thread(task, "fiber-manager-proxies");
		thread.setDaemon(true);
		return thread;
	});

	private final String name;
	private final Map<String, Registration> registrations;
	private final ManagerSession session;
	private final ShippedValues values;
	private final AtomicLong objects = new AtomicLong();
	/** Why the objects' creations failed here, before they were sent: every call on them fails with it. */
	private final Map<Long, Throwable> unsent = new ConcurrentHashMap<>();
	/** Each interface method's parameter types as calls name them, made once rather than at every call. */
	private final Map<Method, List<String>> parameterTypes = new ConcurrentHashMap<>();

	ObjectProxies(String name, Map<String, Registration> registrations, ManagerSession session, ShippedValues values) {
		this.name = name;
		this.registrations = registrations;
		this.session = session;
		this.values = values;
	}

	/**
	 * A proxy of {@code asyncInterface} for a new object made from {@code args}, each of its calls with a deadline of
	 * {@code timeoutNanos} (0: none); its creation is its first call.
	 */
	<A> A create(Class<A> asyncInterface, long timeoutNanos, Object... args) {
		Registration registration = registrations.get(asyncInterface.getName());
		if (registration == null) {
			throw new IllegalArgumentException(asyncInterface.getName() + " is not registered with manager " + name
					+ "; register it (with its implementation) before start(). Registered: " + registrations.keySet());
		}
		long object = objects.incrementAndGet();
		String label = asyncInterface.getSimpleName() + "#" + object + " in manager " + name;
		// The creation is the object's first call: calls made on the proxy queue behind it.
		Mono<Object> created = send(CallFrame.Mode.CREATE, object, registration.implementation(), List.of(),
				args == null ? new Object[0] : args, "creating " + label, timeoutNanos);
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
				(self, method, callArgs) -> invoke(self, method, callArgs, object, label, timeoutNanos));
		// Nobody can call an object whose proxy is gone: a restart need not make it again, nor keep its arguments.
		PROXIES_GONE.register(proxy, () -> session.forget(object));
		return asyncInterface.cast(proxy);
	}

	private Object invoke(Object self, Method method, Object[] args, long object, String label, long timeoutNanos) throws Throwable {
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
			return stream(object, method.getName(), types, given, what)
					.name("fiber.manager.stream").tag("manager", name).tag("method", method.getName());
		}
		return send(CallFrame.Mode.CALL, object, method.getName(), types, given, what, timeoutNanos)
				// Named and tagged for Reactor's metrics (tap(Micrometer.metrics(registry))).
				.name("fiber.manager.call").tag("manager", name).tag("method", method.getName());
	}

	/**
	 * Sends a call whose result is a sequence now, and returns the sequence: its elements come as the subscriber
	 * asks for them, and it ends with the call's answer.
	 */
	private Flux<Object> stream(long object, String method, List<String> parameterTypes, Object[] args, String what) {
		// A sequence's call has no deadline: its elements are read later, between the object's other calls.
		List<ByteBuffer> encoded;
		try {
			encoded = Arguments.encode(values, args, method, parameterTypes, what);
		}
		catch (CodecException e) {
			return Flux.error(e);
		}
		long id = session.pending().nextId();
		Sinks.One<Object> end = Sinks.one();
		StreamIn in = new StreamIn(what, values, n -> session.down(new DemandFrame(id, n).encode()), () -> {
			session.pending().streamEnded(id);
			PendingCalls.Call call = session.pending().take(id);
			if (call != null) {
				// Cancelled before its end: the manager stops making elements.
				session.pending().answered(call, false);
				session.down(new DemandFrame(id, -1).encode());
			}
		});
		byte[] frame = new CallFrame(CallFrame.Mode.CALL_MANY, id, object, method, parameterTypes, encoded).encode();
		ManagerLostException gone = session.register(id, new PendingCalls.Call(what, end, System.nanoTime(), 0, Arguments.sole(encoded)), in,
				frame, object, null);
		if (gone != null) {
			return Flux.error(gone);
		}
		end.asMono().doFinally(signal -> session.pending().streamEnded(id)).subscribe(value -> in.complete(), in::fail, in::complete);
		return in.flux();
	}

	/**
	 * Sends a call now and returns its result, replayed to every subscriber; the manager interrupts it
	 * {@code timeoutNanos} after it starts (0: never).
	 */
	private Mono<Object> send(CallFrame.Mode mode, long object, String name, List<String> parameterTypes, Object[] args, String what,
			long timeoutNanos) {
		List<ByteBuffer> encoded;
		try {
			encoded = Arguments.encode(values, args, name, parameterTypes, what);
		}
		catch (CodecException e) {
			return Mono.error(e);
		}
		long id = session.pending().nextId();
		Sinks.One<Object> result = Sinks.one();
		byte[] frame = new CallFrame(mode, id, object, timeoutNanos, name, parameterTypes, encoded).encode();
		// A creation's copy, for a restart to send again: the frame may be the argument's own array, which goes back to
		// the codec once answered.
		byte[] kept = mode == CallFrame.Mode.CREATE ? frame.clone() : null;
		ManagerLostException gone = session.register(id, new PendingCalls.Call(what, result, System.nanoTime(), timeoutNanos,
				Arguments.sole(encoded)), null, frame, object, kept);
		if (gone != null) {
			return Mono.error(gone);
		}
		return result.asMono();
	}
}
