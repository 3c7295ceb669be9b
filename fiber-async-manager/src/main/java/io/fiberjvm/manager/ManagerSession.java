package io.fiberjvm.manager;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.RemoteException;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.LargeDecoding;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.AnswerFrame;
import io.fiberjvm.internal.frames.Arrived;
import io.fiberjvm.internal.frames.CallFrame;
import io.fiberjvm.internal.frames.DemandFrame;
import io.fiberjvm.internal.frames.ElementsFrame;
import io.fiberjvm.internal.frames.FrameHeaderCodec;
import io.fiberjvm.internal.frames.ReadyFrame;
import io.fiberjvm.internal.frames.SharedCallsFrame;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.InboundReader;

/**
 * The parent's side of one manager: the session its process opened, and the calls sent and not answered
 * (its objects' proxies, {@link ObjectProxies}, send them).
 */
final class ManagerSession implements AsyncManager {

	/**
	 * What a shared-object handle needs to reach its manager, and the runtime of the process holding it.
	 *
	 * @param manager the manager's name
	 * @param address where the manager serves its shared objects, {@code host:port}
	 * @param prefix the manager's shared-object routes' prefix
	 * @param runtime the runtime the handle works through
	 */
	record Shared(String manager, String address, String prefix, RuntimeContext runtime) {
	}

	/** Why the manager was lost, and the error its process ended with, when that is how. */
	private record Lost(String why, @Nullable Throwable cause) {
	}

	private final String name;
	private final ShippedValues values;
	private final PendingCalls pending = new PendingCalls();
	/** The manager's last report of the calls it served on shared objects. */
	private volatile SharedCallsFrame sharedCalls = new SharedCallsFrame(0, 0, 0);
	private final Sinks.One<AsyncManager> attached = Sinks.one();
	private final Sinks.Empty<Void> closed = Sinks.empty();
	private @Nullable FluxSink<byte[]> out;
	private @Nullable Lost lost;
	private volatile @Nullable FiberProcess process;
	private volatile @Nullable Disposable served;
	private final RuntimeContext runtime;
	private final String sharedPrefix;
	private volatile @Nullable String address;
	private final ObjectProxies proxies;

	ManagerSession(String name, Map<String, Registration> registrations, RuntimeContext runtime, String sharedPrefix) {
		this.name = name;
		this.values = runtime.values();
		this.proxies = new ObjectProxies(name, registrations, this);
		this.runtime = runtime;
		this.sharedPrefix = sharedPrefix;
	}

	private Shared shared() {
		// Known before the manager is handed to anyone: it is its ready word.
		return new Shared(name, Objects.requireNonNull(address, "the manager's address"), sharedPrefix, runtime);
	}

	@Override
	public <K, V> SharedMap<K, V> map(String name) {
		return new SharedMap<>(shared(), name);
	}

	@Override
	public <T> SharedList<T> list(String name) {
		return new SharedList<>(shared(), name);
	}

	@Override
	public <T> SharedValue<T> value(String name) {
		return new SharedValue<>(shared(), name);
	}

	@Override
	public SharedCounter counter(String name) {
		return new SharedCounter(shared(), name);
	}

	@Override
	public <T> SharedQueue<T> queue(String name) {
		return new SharedQueue<>(shared(), name);
	}

	void served(Disposable served) {
		this.served = served;
	}

	void started(FiberProcess process) {
		this.process = process;
		// join() fails with the process's error: what kept it from starting, or what it said as it ended.
		process.onExit().subscribe(code -> process.join().subscribe(null, error -> exited(code, error), () -> exited(code, null)));
	}

	private void exited(int code, @Nullable Throwable error) {
		lost("its process exited with code " + code, error);
		closed.tryEmitEmpty();
	}

	/** The error a call gets from a manager lost for {@code lost}; {@code what} follows why. */
	private ManagerLostException lostError(Lost lost, String what) {
		return new ManagerLostException("manager " + name + " was lost (" + lost.why() + ")" + what, lost.cause());
	}

	/** Completes when the manager's session is open and it takes calls. */
	Mono<AsyncManager> attached() {
		return attached.asMono();
	}

	/**
	 * How the transport reads what comes up the session: an answer whose value is a large array of numbers or bytes
	 * is read into its array as it arrives, anything else whole.
	 */
	InboundReader<Arrived<Answer>> reader() {
		return AnswerFrame.reader(values);
	}

	/** The manager process opened its session: calls go down it, answers come up. */
	Flux<byte[]> attach(Publisher<Arrived<Answer>> answers) {
		return Flux.create(sink -> {
			synchronized (this) {
				if (out != null || lost != null) {
					sink.error(new ManagerLostException("manager " + name + " already has a session, or was lost"));
					return;
				}
				out = sink;
			}
			sink.onCancel(() -> lost("its session was cancelled"));
			Flux.from(answers).subscribe(this::receive, error -> lost("its connection failed (" + error.getMessage() + ")"),
					() -> lost("it ended its session"));
		}, FluxSink.OverflowStrategy.BUFFER);
	}

	@Override
	public String name() {
		return name;
	}

	@Override
	public FiberProcess process() {
		// Known before the manager is handed to anyone: it started first.
		return Objects.requireNonNull(process, "the manager's process");
	}

	@Override
	public <A> A create(Class<A> asyncInterface, Object... args) {
		return proxies.create(asyncInterface, args);
	}

	/**
	 * Sends a call whose result is a sequence now, and returns the sequence: its elements come as the subscriber
	 * asks for them, and it ends with the call's answer.
	 */
	Flux<Object> stream(long object, String method, List<String> parameterTypes, Object[] args, String what) {
		List<ByteBuffer> encoded;
		try {
			encoded = Arguments.encode(values, args, method, parameterTypes, what);
		}
		catch (CodecException e) {
			return Flux.error(e);
		}
		long id = pending.nextId();
		Sinks.One<Object> end = Sinks.one();
		StreamIn in = new StreamIn(what, values, n -> down(new DemandFrame(id, n).encode()), () -> {
			pending.streamEnded(id);
			PendingCalls.Call call = pending.take(id);
			if (call != null) {
				// Cancelled before its end: the manager stops making elements.
				pending.answered(call, false);
				down(new DemandFrame(id, -1).encode());
			}
		});
		byte[] frame = new CallFrame(CallFrame.Mode.CALL_MANY, id, object, method, parameterTypes, encoded).encode();
		Lost gone = register(id, new PendingCalls.Call(what, end, System.nanoTime(), Arguments.sole(encoded)), in, frame);
		if (gone != null) {
			return Flux.error(lostError(gone, "; cannot run " + what));
		}
		end.asMono().doFinally(signal -> pending.streamEnded(id)).subscribe(value -> in.complete(), in::fail, in::complete);
		return in.flux();
	}

	/**
	 * Registers a call and sends it, unless the manager was lost: then returns why. Under the lock, so the order
	 * calls are made is the order the manager sees them; the session is open before the manager is handed out.
	 */
	private synchronized @Nullable Lost register(long id, PendingCalls.Call call, @Nullable StreamIn stream, byte[] frame) {
		if (lost != null) {
			return lost;
		}
		pending.sent(id, call, stream);
		Objects.requireNonNull(out, "the manager's session").next(frame);
		return null;
	}

	/** Sends a frame down the session, unless it is over. */
	private synchronized void down(byte[] frame) {
		if (lost == null && out != null) {
			out.next(frame);
		}
	}

	/** Sends a call now and returns its result, replayed to every subscriber. */
	Mono<Object> send(CallFrame.Mode mode, long object, String name, List<String> parameterTypes, Object[] args, String what) {
		List<ByteBuffer> encoded;
		try {
			encoded = Arguments.encode(values, args, name, parameterTypes, what);
		}
		catch (CodecException e) {
			return Mono.error(e);
		}
		long id = pending.nextId();
		Sinks.One<Object> result = Sinks.one();
		byte[] frame = new CallFrame(mode, id, object, name, parameterTypes, encoded).encode();
		Lost gone = register(id, new PendingCalls.Call(what, result, System.nanoTime(), Arguments.sole(encoded)), null, frame);
		if (gone != null) {
			return Mono.error(lostError(gone, "; cannot run " + what));
		}
		return result.asMono();
	}

	/** A frame from the manager: its ready word, a shared-call report, or a call's answer. */
	private void receive(Arrived<Answer> arrived) {
		if (arrived.read() != null) {
			answer(arrived.read());
			return;
		}
		byte[] frame = Objects.requireNonNull(arrived.whole(), "a frame that is not an answer read as it arrived");
		try {
			switch (FrameHeaderCodec.kind(frame)) {
				case READY -> {
					// The manager's first word: where its shared objects are served. Now it takes calls.
					address = ReadyFrame.decode(frame);
					attached.tryEmitValue(this);
				}
				case SHARED_CALLS -> sharedCalls = SharedCallsFrame.decode(frame);
				case ANSWER -> answer(AnswerFrame.decode(frame));
				case ELEMENTS -> {
					ElementsFrame elements = ElementsFrame.decode(frame);
					StreamIn in = pending.stream(elements.call());
					if (in != null) {
						in.elements(elements.elements());
					}
				}
				default -> throw new CodecException("a manager sent a " + FrameHeaderCodec.kind(frame).description()
						+ " where its ready word, an answer or a report belongs");
			}
		}
		catch (CodecException e) {
			lost("it sent a malformed frame (" + e.getMessage() + ")");
		}
	}

	private void answer(Answer answer) {
		PendingCalls.Call call = pending.take(answer.id());
		if (call == null) {
			return;
		}
		// Answered: the call's frame was written whole, and its array may hold the next argument of its size.
		Arguments.giveBack(values, call.argument());
		pending.answered(call, answer.failed());
		if (answer.failed()) {
			call.result().tryEmitError(RemoteException.decode(answer.error()));
			return;
		}
		// A result that cannot be read, or whose class cannot initialize here, fails its own call only.
		LargeDecoding.run(answer.value(), () -> {
			Object value = answer.result(values, "the result of " + call.what());
			if (value == null) {
				call.result().tryEmitEmpty();
			}
			else {
				call.result().tryEmitValue(value);
			}
		}, error -> call.result().tryEmitError(error));
	}

	@Override
	public ManagerStats stats() {
		return pending.stats(sharedCalls);
	}

	@Override
	public Flux<Duration> callLatencies() {
		return pending.latencies();
	}

	/** The manager is gone: every pending call fails, and so does every later one. */
	void lost(String why) {
		lost(why, null);
	}

	/** As {@link #lost(String)}, the calls failing with {@code cause} as their error's cause. */
	void lost(String why, @Nullable Throwable cause) {
		Lost gone = new Lost(why, cause);
		synchronized (this) {
			if (lost != null) {
				return;
			}
			lost = gone;
		}
		Disposable route = served;
		if (route != null) {
			route.dispose();
		}
		attached.tryEmitError(lostError(gone, " before it took calls"));
		for (PendingCalls.Call call : pending.takeAll()) {
			pending.answered(call, true);
			call.result().tryEmitError(lostError(gone, "; " + call.what() + " did not complete"));
		}
		FluxSink<byte[]> sink;
		synchronized (this) {
			sink = out;
		}
		if (sink != null) {
			sink.complete();
		}
	}

	@Override
	public Mono<Void> closeAsync() {
		return Mono.defer(() -> {
			dispose();
			return closed.asMono();
		});
	}

	@Override
	public void dispose() {
		lost("it was closed");
		FiberProcess running = process;
		if (running != null) {
			running.terminate().subscribe(done -> { }, error -> { });
		}
		else {
			closed.tryEmitEmpty();
		}
	}

	@Override
	public synchronized boolean isDisposed() {
		return lost != null;
	}

	@Override
	public Mono<Void> onClose() {
		return closed.asMono();
	}

	@Override
	public String toString() {
		return "AsyncManager[" + name + "]";
	}
}
