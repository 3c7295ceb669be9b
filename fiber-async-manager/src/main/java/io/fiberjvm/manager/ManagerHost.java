package io.fiberjvm.manager;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.Arrived;
import io.fiberjvm.internal.frames.CallFrame;
import io.fiberjvm.internal.frames.DemandFrame;
import io.fiberjvm.internal.frames.FrameHeaderCodec;
import io.fiberjvm.internal.frames.FrameKind;
import io.fiberjvm.internal.frames.ReadyFrame;
import io.fiberjvm.internal.stream.SequenceOut;
import io.fiberjvm.runtime.ParentSession;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.Endpoint;

/**
 * What a manager process runs: it opens a session with the parent, creates the objects asked for (of
 * registered classes only) and runs each object's calls one at a time, in order, on a shared pool of
 * threads. It returns when the parent ends the session.
 */
final class ManagerHost implements ProcessTarget {

	private static final long serialVersionUID = 1L;

	private final String route;
	private final String sharedPrefix;
	private final List<Registration> registrations;

	ManagerHost(String route, String sharedPrefix, List<Registration> registrations) {
		this.route = route;
		this.sharedPrefix = sharedPrefix;
		this.registrations = List.copyOf(registrations);
	}

	/**
	 * One hosted object: the instance, or why it could not be created or was given up as stuck; and its calls'
	 * queue.
	 */
	private record Hosted(@Nullable Object instance, @Nullable Throwable failure, SerialExecutor calls) {
	}

	/** A call's sequence on its way up, and the object it reads from. */
	private record Streaming(long object, SequenceOut out) {
	}

	@Override
	public void run(RuntimeContext runtime) {
		Endpoint parent = runtime.parentAddress()
				.orElseThrow(() -> new IllegalStateException("a manager runs only in a job-backed process its parent started"));
		ShippedValues values = runtime.values();
		int maxError = Math.min(64 * 1024, runtime.maxFrameSize() / 2);
		ExecutorService threads = Executors.newCachedThreadPool(task -> {
			Thread thread = new Thread(task, "fiber-manager-object");
			thread.setDaemon(true);
			return thread;
		});
		// The parent sends no call before this process's ready word, which goes up once the session is open.
		@SuppressWarnings("unchecked")
		ParentSession<Arrived<CallFrame>>[] session = new ParentSession[1];
		Answers answers = new Answers(values, maxError, frame -> session[0].send(frame));
		Duration timeout = runtime.config().get(ConfigKeys.START_TIMEOUT);
		Map<Long, Streaming> streams = new ConcurrentHashMap<>();
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
			Thread thread = new Thread(task, "fiber-manager-deadlines");
			thread.setDaemon(true);
			return thread;
		});
		timer.setRemoveOnCancelPolicy(true);
		Serving serving = new Serving(new ConcurrentHashMap<>(), new ConcurrentHashMap<>(), threads,
				new QuickMethods(runtime.config().get(ConfigKeys.MANAGER_DIRECT_CALLS)), values, answers, streams,
				new CallWatch(timer, runtime.config().get(ConfigKeys.TASK_TIMEOUT_GRACE)));
		session[0] = ParentSession.open(Objects.requireNonNull(runtime.connectionTo(parent).block(timeout), "a connection to the parent"), route,
				"the manager", CallFrame.reader(values), down -> {
					byte[] frame = down.whole();
					if (frame != null && FrameHeaderCodec.kind(frame) == FrameKind.DEMAND) {
						demand(DemandFrame.decode(frame), streams);
					}
					else {
						CallFrame call = down.read();
						call(call != null ? call : CallFrame.decode(Objects.requireNonNull(frame, "a frame")), serving);
					}
				});
		// Shared objects are served by this process to every process of the run; the parent learns where first.
		SharedCallCounts sharedCalls = new SharedCallCounts();
		runtime.serve(sharedPrefix, new SharedObjects(sharedPrefix, values, sharedCalls).routes());
		session[0].send(ReadyFrame.encode(Objects.requireNonNull(runtime.address().block(timeout), "this process's address").toString()));
		// The shared-call counts go up to the parent when they change, at most once a second.
		long[] reported = {0};
		Disposable reports = Flux.interval(Duration.ofSeconds(1)).subscribe(tick -> {
			long calls = sharedCalls.calls();
			if (calls != reported[0]) {
				reported[0] = calls;
				// A report that finds the session gone is dropped with it.
				session[0].send(sharedCalls.report().encode());
			}
		});
		try {
			session[0].await();
		}
		finally {
			// Calls served in the session's last second are not reported: the session they would go up is over.
			reports.dispose();
			streams.values().forEach(streaming -> streaming.out().cancelOnExecutor());
			threads.shutdownNow();
			timer.shutdownNow();
		}
	}

	/** The stream of a call whose result is a sequence, registered before the call runs. */
	private static SequenceOut stream(long id, long object, String method, Hosted hosted, ShippedValues values, Answers answers,
			Map<Long, Streaming> streams) {
		SequenceOut stream = new SequenceOut(id, "an element of " + method, hosted.calls(), values, answers.frames(), error -> {
			streams.remove(id);
			answers.send(id, error, null);
		});
		streams.put(id, new Streaming(object, stream));
		return stream;
	}

	/** More elements of a call's sequence wanted, or none: the caller cancelled. A stream already ended is gone. */
	private static void demand(DemandFrame demand, Map<Long, Streaming> streams) {
		Streaming streaming = demand.count() < 0 ? streams.remove(demand.call()) : streams.get(demand.call());
		if (streaming == null) {
			return;
		}
		SequenceOut stream = streaming.out();
		if (demand.count() < 0) {
			// On the object's executor: what cancelling runs (a stream's close handler) is the object's code.
			stream.cancelOnExecutor();
		}
		else if (demand.count() > 0) {
			stream.demand(demand.count());
		}
	}

	/**
	 * What serves the calls of this process's objects: the objects, their methods found so far, the threads their
	 * calls run on and which methods are quick enough not to need them, the codec, the answers going up, the
	 * sequences being sent and the watch over deadlines.
	 */
	private record Serving(Map<Long, Hosted> objects, Map<MethodKey, Method> methods, ExecutorService threads,
			QuickMethods quick, ShippedValues values, Answers answers, Map<Long, Streaming> streams, CallWatch watch) {
	}

	/** Names a method of a class: the name and parameter types a call gives. */
	private record MethodKey(Class<?> type, String name, List<String> parameterTypes) {
	}

	/**
	 * A call from the parent, on the connection's thread: creations and calls queue on their object's executor,
	 * except a call of a quick method on an idle object, which runs here.
	 */
	private void call(CallFrame call, Serving serving) {
		if (call.mode() == CallFrame.Mode.CREATE) {
			SerialExecutor serial = new SerialExecutor(serving.threads());
			// Registered now, so calls that arrive before the constructor has run queue behind it.
			serving.objects().put(call.object(), new Hosted(null, null, serial));
			serial.execute(() -> {
				CallWatch.Watched watched = watch(call, serving);
				Hosted made;
				try {
					made = new Hosted(Construction.construct(registrations, call, serving.values()), null, serial);
				}
				catch (Throwable e) {
					made = new Hosted(null, e, serial);
				}
				CallWatch.End end = watched == null ? CallWatch.End.RAN : watched.end();
				if (end == CallWatch.End.STUCK) {
					// Answered, and the object given up, when its grace ran out.
					return;
				}
				if (end == CallWatch.End.TIMED_OUT) {
					made = new Hosted(null, new CallWatch.DeadlinePassed("ran past its deadline of " + Duration.ofNanos(call.timeoutNanos())
							+ " and was interrupted"), serial);
				}
				serving.objects().put(call.object(), made);
				serving.answers().send(call.id(), made.failure(), null);
			});
			return;
		}
		Hosted hosted = serving.objects().get(call.object());
		if (hosted == null) {
			serving.answers().send(call.id(), new IllegalStateException("no object " + call.object() + " in this manager"), null);
			return;
		}
		Object instance = hosted.instance();
		Method found = null;
		// A call with a deadline runs on the object's thread, which its watch may interrupt.
		if (serving.quick().enabled() && call.mode() == CallFrame.Mode.CALL && call.timeoutNanos() == 0 && instance != null
				&& small(call)) {
			Method method = methodOrNull(instance, call, serving.methods());
			found = method;
			// No hand-off to the object's thread and back: the answer is on its way before the next frame is read.
			if (method != null && serving.quick().trusted(method)
					&& hosted.calls().runHereIfIdle(() -> run(call, hosted, null, serving, method, true))) {
				return;
			}
		}
		Method known = found;
		// A sequence's stream is known before its call runs: demand for it may arrive first, and queues behind it.
		SequenceOut stream = call.mode() == CallFrame.Mode.CALL_MANY
				? stream(call.id(), call.object(), call.name(), hosted, serving.values(), serving.answers(), serving.streams()) : null;
		// The object as its creation left it: this call runs after the creation, on the same executor.
		hosted.calls().execute(() -> run(call, serving.objects().getOrDefault(call.object(), hosted), stream, serving, known, false));
	}

	/**
	 * Runs a call on {@code hosted} and answers it, or starts its sequence. {@code found} is the call's method when it
	 * was looked up already (null: look it up here); {@code direct} says the call runs on the connection's thread,
	 * where blocking is refused, rather than on the object's.
	 */
	private static void run(CallFrame call, Hosted hosted, @Nullable SequenceOut stream, Serving serving, @Nullable Method found,
			boolean direct) {
		Object instance = hosted.instance();
		Method method = found;
		// Reading the arguments and encoding the answer count with the method: they are the connection's time too.
		// Handing the answer to the transport does not: its write is the connection's own work, direct or not.
		long start = System.nanoTime();
		// A sequence's call has no deadline: its elements are read later, between the object's other calls.
		CallWatch.Watched watched = stream == null ? watch(call, serving) : null;
		Object result = null;
		Throwable failure = null;
		try {
			if (instance == null) {
				throw unusable(hosted.failure());
			}
			if (method == null) {
				method = method(instance, call, serving.methods());
			}
			result = method.invoke(instance, args(call, serving.values()));
		}
		catch (InvocationTargetException e) {
			Throwable cause = e.getCause() != null ? e.getCause() : e;
			failure = direct && method != null ? blocked(cause, method, serving.quick()) : cause;
		}
		catch (Throwable e) {
			failure = e;
		}
		// The watch ends with the method: encoding its answer is not the method's to time.
		CallWatch.End end = watched == null ? CallWatch.End.RAN : watched.end();
		if (end == CallWatch.End.STUCK) {
			// Answered, and the object given up, when its grace ran out.
			return;
		}
		if (end == CallWatch.End.TIMED_OUT) {
			failure = new CallWatch.DeadlinePassed("it was interrupted and stopped");
		}
		if (stream != null && failure == null) {
			try {
				Sequences.of(result).subscribe(stream);
				return;
			}
			catch (RuntimeException e) {
				failure = e;
			}
		}
		Answer answer = failure != null ? serving.answers().failure(call.id(), failure) : serving.answers().answer(call.id(), result);
		// A sequence's call never runs directly: its time says nothing of the method's.
		if (method != null && stream == null) {
			serving.quick().ran(method, System.nanoTime() - start);
		}
		if (stream != null && serving.streams().remove(call.id()) == null) {
			// Its sequence was given up, and answered, with its stuck object.
			return;
		}
		serving.answers().send(answer);
	}

	/** Why a call on an object that was not created, or was given up as stuck, fails. */
	private static RuntimeException unusable(@Nullable Throwable failure) {
		if (failure instanceof CallWatch.Stuck stuck) {
			return stuck;
		}
		if (failure instanceof CallWatch.DeadlinePassed passed) {
			return new IllegalStateException("the object was not created: its creation " + passed.getMessage());
		}
		return new IllegalStateException("the object was not created: " + failure, failure);
	}

	/** The watch over {@code call} as it starts running, or null when it has no deadline. */
	private static CallWatch.@Nullable Watched watch(CallFrame call, Serving serving) {
		return call.timeoutNanos() == 0 ? null : serving.watch().start(call.timeoutNanos(), () -> stuck(call, serving));
	}

	/**
	 * On the watch's timer: {@code call} ran past its deadline and did not stop within its grace. It is answered, and
	 * its object given up without being touched again: the calls queued on it, and later ones, fail at once, and its
	 * sequences end with that error.
	 */
	private static void stuck(CallFrame call, Serving serving) {
		String why = call.name() + " ran past its deadline of " + Duration.ofNanos(call.timeoutNanos())
				+ " and did not stop within task-timeout-grace of being interrupted";
		CallWatch.Stuck given = new CallWatch.Stuck("the object is stuck: " + why + "; restart() its manager to use it again");
		Hosted was = serving.objects().get(call.object());
		SerialExecutor fresh = new SerialExecutor(serving.threads());
		// The stuck entry keeps the old executor, which hands what it is given to the fresh one once abandoned, so a
		// call arriving meanwhile queues behind those queued before it.
		SerialExecutor old = was != null ? was.calls() : fresh;
		serving.objects().put(call.object(), new Hosted(null, given, old));
		serving.streams().entrySet().removeIf(entry -> {
			if (entry.getValue().object() != call.object()) {
				return false;
			}
			entry.getValue().out().abandon();
			serving.answers().send(entry.getKey(), given, null);
			return true;
		});
		serving.answers().send(call.id(), new CallWatch.GivenUp("it did not stop within task-timeout-grace of being interrupted, "
				+ "so its object is given up as stuck"), null);
		old.abandon(fresh);
	}

	/** Whether a call's arguments are small enough to read on the connection's thread: under 64 KiB together. */
	private static boolean small(CallFrame call) {
		if (call.decoded() != null) {
			return false;
		}
		long bytes = 0;
		for (java.nio.ByteBuffer arg : call.args()) {
			bytes += arg == null ? 0 : arg.remaining();
		}
		return bytes < ShippedValues.ROOMY;
	}

	/** What a call run on the connection's thread failed with, said plainly when it was refused blocking there. */
	private static Throwable blocked(Throwable error, Method method, QuickMethods quick) {
		if (!QuickMethods.refusedBlocking(error)) {
			return error;
		}
		quick.bar(method);
		return new IllegalStateException(method.getName() + " blocked on the manager's connection thread, where it ran because "
				+ "its last " + QuickMethods.TRUST_AFTER + " calls were quick; its calls run on the object's threads from now on "
				+ "(set manager-direct-calls=false if methods that are mostly quick may block)", error);
	}

	private static Method method(Object instance, CallFrame call, Map<MethodKey, Method> methods) {
		return methods.computeIfAbsent(new MethodKey(instance.getClass(), call.name(), call.parameterTypes()),
				key -> find(key.type(), key.name(), key.parameterTypes()));
	}

	/** The method a call names, or null when it cannot be found here: its run on the object's thread says why. */
	private static @Nullable Method methodOrNull(Object instance, CallFrame call, Map<MethodKey, Method> methods) {
		try {
			return method(instance, call, methods);
		}
		catch (RuntimeException | LinkageError e) {
			return null;
		}
	}

	private static Method find(Class<?> type, String name, List<String> parameterTypes) {
		for (Method method : type.getMethods()) {
			if (method.getName().equals(name) && Registration.parameterTypes(method).equals(parameterTypes)) {
				return method;
			}
		}
		throw new IllegalArgumentException(type.getName() + " has no public method " + name + parameterTypes);
	}

	private static @Nullable Object[] args(CallFrame call, ShippedValues values) {
		@Nullable Object[] args = new Object[call.args().size()];
		for (int i = 0; i < args.length; i++) {
			// Handles (queues, shared objects) passed as arguments are read as handles of this process.
			args[i] = call.argument(i, values, "argument " + i + " of " + call.name());
		}
		return args;
	}
}
