package io.fiberjvm.manager;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberRunnable;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.queue.QueueContext;
import io.fiberjvm.transport.Connection;
import io.fiberjvm.transport.Endpoint;

/**
 * What a manager process runs: it opens a session with the parent, creates the objects asked for (of
 * registered classes only) and runs each object's calls one at a time, in order, on a shared pool of
 * threads. It returns when the parent ends the session.
 */
final class ManagerHost implements FiberRunnable {

	private static final long serialVersionUID = 1L;

	private final String parent;
	private final String route;
	private final String sharedPrefix;
	private final List<Registration> registrations;
	private transient QueueContext context;

	ManagerHost(String parent, String route, String sharedPrefix, List<Registration> registrations) {
		this.parent = parent;
		this.route = route;
		this.sharedPrefix = sharedPrefix;
		this.registrations = List.copyOf(registrations);
	}

	private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
		in.defaultReadObject();
		// The runtime reading this target is the one the manager talks to its parent through.
		context = QueueContext.current();
	}

	/** One hosted object: the instance, or why it could not be created; and its calls' queue. */
	private record Hosted(Object instance, Throwable failure, SerialExecutor calls) {
	}

	@Override
	public void run() {
		if (context == null) {
			throw new IllegalStateException("a manager runs only in a job-backed process its parent started");
		}
		FiberConfig config = context.config();
		ShippedValues values = context.values();
		int maxError = Math.min(64 * 1024, context.maxFrameSize() / 2);
		Connection connection = context.connectionTo(Endpoint.parse(parent)).block(config.get(ConfigKeys.START_TIMEOUT));
		Sinks.Many<byte[]> answers = Sinks.many().unicast().onBackpressureBuffer();
		// Shared objects are served by this process to every process of the run; the parent learns where first.
		SharedCallCounts sharedCalls = new SharedCallCounts();
		context.serve(sharedPrefix, new SharedObjects(sharedPrefix, values, context, sharedCalls));
		answers.emitNext(CallFrames.encode(new CallFrames.Answer(0, false, null,
				context.localAddress().toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))), Sinks.EmitFailureHandler.FAIL_FAST);
		ExecutorService threads = Executors.newCachedThreadPool(task -> {
			Thread thread = new Thread(task, "fiber-manager-object");
			thread.setDaemon(true);
			return thread;
		});
		// The shared-call counts go up to the parent when they change, at most once a second.
		long[] reported = {0};
		reactor.core.Disposable reports = reactor.core.publisher.Flux.interval(java.time.Duration.ofSeconds(1)).subscribe(tick -> {
			long calls = sharedCalls.calls();
			if (calls != reported[0]) {
				reported[0] = calls;
				byte[] report = CallFrames.encode(new CallFrames.Answer(SharedCallCounts.REPORT_ID, false, null, sharedCalls.encode()));
				// A report that finds the session gone is dropped with it.
				synchronized (answers) {
					answers.tryEmitNext(report);
				}
			}
		});
		Map<Long, Hosted> objects = new ConcurrentHashMap<>();
		Map<String, Method> methods = new ConcurrentHashMap<>();
		CountDownLatch ended = new CountDownLatch(1);
		Throwable[] failure = new Throwable[1];
		connection.requestChannel(route, answers.asFlux()).subscribe(frame -> {
			CallFrames.Call call;
			try {
				call = CallFrames.decodeCall(frame);
			}
			catch (CodecException malformed) {
				failure[0] = malformed;
				ended.countDown();
				return;
			}
			if (call.kind() == CallFrames.CREATE) {
				SerialExecutor serial = new SerialExecutor(threads);
				// Registered now, so calls that arrive before the constructor has run queue behind it.
				Hosted placeholder = new Hosted(null, null, serial);
				objects.put(call.object(), placeholder);
				serial.execute(() -> {
					Hosted made;
					try {
						made = new Hosted(construct(call, values), null, serial);
					}
					catch (Throwable e) {
						made = new Hosted(null, e, serial);
					}
					objects.put(call.object(), made);
					answer(answers, call.id(), made.failure(), null, values, maxError);
				});
				return;
			}
			Hosted hosted = objects.get(call.object());
			if (hosted == null) {
				answer(answers, call.id(), new IllegalStateException("no object " + call.object() + " in this manager"), null, values, maxError);
				return;
			}
			hosted.calls().execute(() -> {
				Hosted now = objects.get(call.object());
				if (now.failure() != null) {
					answer(answers, call.id(), new IllegalStateException("the object was not created: " + now.failure(), now.failure()),
							null, values, maxError);
					return;
				}
				try {
					Method method = methods.computeIfAbsent(now.instance().getClass().getName() + "#" + call.name() + call.parameterTypes(),
							key -> find(now.instance().getClass(), call.name(), call.parameterTypes()));
					Object result = method.invoke(now.instance(), args(call, values));
					answer(answers, call.id(), null, call.kind() == CallFrames.CALL_MANY ? asList(result) : result, values, maxError);
				}
				catch (InvocationTargetException e) {
					answer(answers, call.id(), e.getCause(), null, values, maxError);
				}
				catch (Throwable e) {
					answer(answers, call.id(), e, null, values, maxError);
				}
			});
		}, error -> {
			failure[0] = error;
			ended.countDown();
		}, ended::countDown);
		try {
			ended.await();
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
		finally {
			// Calls served in the session's last second are not reported: the session they would go up is over.
			reports.dispose();
			threads.shutdownNow();
		}
		if (failure[0] != null) {
			throw new IllegalStateException("the manager's session ended with an error: " + failure[0].getMessage(), failure[0]);
		}
	}

	@SuppressWarnings("unchecked")
	private Object construct(CallFrames.Call call, ShippedValues values) throws Exception {
		Registration registration = registrations.stream().filter(r -> r.implementation().equals(call.name())).findFirst()
				.orElseThrow(() -> new IllegalArgumentException(call.name() + " is not a class registered with this manager"));
		Class<?> type = Class.forName(call.name(), true, Thread.currentThread().getContextClassLoader());
		Object[] args = new Object[call.args().size()];
		for (int i = 0; i < args.length; i++) {
			int index = i;
			args[i] = QueueContext.resolving(context,
					() -> values.read(call.args().get(index), call.allow(), "argument " + index + " of the constructor of " + call.name()));
		}
		if (registration.factory() != null) {
			java.util.function.Function<Object[], Object> factory = QueueContext.resolving(context, () -> values.readFunction(
					registration.factory(), registration.factoryAllow(), java.util.function.Function.class, "the factory of " + call.name()));
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

	private static boolean accepts(Class<?>[] parameters, Object[] args) {
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

	private static Method find(Class<?> type, String name, List<String> parameterTypes) {
		for (Method method : type.getMethods()) {
			if (method.getName().equals(name) && Registration.parameterTypes(method).equals(parameterTypes)) {
				return method;
			}
		}
		throw new IllegalArgumentException(type.getName() + " has no public method " + name + parameterTypes);
	}

	private Object[] args(CallFrames.Call call, ShippedValues values) {
		Object[] args = new Object[call.args().size()];
		for (int i = 0; i < args.length; i++) {
			int index = i;
			// Handles (queues, shared objects) passed as arguments work in the object.
			args[i] = QueueContext.resolving(context, () -> values.read(call.args().get(index), call.allow(), "argument " + index + " of " + call.name()));
		}
		return args;
	}

	/** A sequence result as a list, which travels. */
	private static Object asList(Object result) {
		List<Object> list = new ArrayList<>();
		if (result instanceof Iterable<?> iterable) {
			iterable.forEach(list::add);
		}
		else if (result instanceof Stream<?> stream) {
			stream.forEach(list::add);
		}
		else if (result != null && result.getClass().isArray()) {
			for (int i = 0; i < java.lang.reflect.Array.getLength(result); i++) {
				list.add(java.lang.reflect.Array.get(result, i));
			}
		}
		return list;
	}

	private static void answer(Sinks.Many<byte[]> answers, long id, Throwable error, Object value, ShippedValues values, int maxError) {
		CallFrames.Answer answer;
		if (error == null) {
			try {
				byte[] bytes = values.write(value, "the result");
				if (bytes != null && bytes.length > maxError * 16L) {
					throw new CodecException("the result is " + bytes.length + " bytes, more than a frame (fiber.max-frame-size) carries");
				}
				answer = new CallFrames.Answer(id, false, ShippedValues.allowFor(value), bytes);
			}
			catch (CodecException e) {
				error = e;
				answer = null;
			}
		}
		else {
			answer = null;
		}
		if (answer == null) {
			answer = new CallFrames.Answer(id, true, null,
					RemoteException.encode(error, maxError).getBytes(java.nio.charset.StandardCharsets.UTF_8));
		}
		emit(answers, CallFrames.encode(answer));
	}

	/** Answers come from many object threads; the sink takes one at a time. */
	private static void emit(Sinks.Many<byte[]> answers, byte[] frame) {
		synchronized (answers) {
			answers.emitNext(frame, Sinks.EmitFailureHandler.FAIL_FAST);
		}
	}
}
