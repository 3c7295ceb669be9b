package io.fiberjvm.manager;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.internal.runtime.ProcessEndings;
import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.AnswerFrame;
import io.fiberjvm.internal.frames.Arrived;
import io.fiberjvm.internal.frames.ElementsFrame;
import io.fiberjvm.internal.frames.FrameHeaderCodec;
import io.fiberjvm.internal.frames.ReadyFrame;
import io.fiberjvm.internal.frames.SharedCallsFrame;
import io.fiberjvm.runtime.RuntimeContext;
import io.fiberjvm.transport.InboundReader;
import io.fiberjvm.transport.Routes;

/**
 * The parent's side of one manager, behind its {@link ManagerHandle}s: the process it runs in now ({@link ManagerLink}, a new one at each restart) and
 * the session that process opened, and the calls sent and not answered (its objects' proxies, {@link ObjectProxies},
 * send them).
 */
final class ManagerSession {

	private final String name;
	private final Map<String, Registration> registrations;
	private final ResourceSpec resources;
	private final ShippedValues values;
	private final PendingCalls pending = new PendingCalls();
	/** The manager's last report of the calls it served on shared objects. */
	private volatile SharedCallsFrame sharedCalls = new SharedCallsFrame(0, 0, 0);
	private final Sinks.Empty<Void> closed = Sinks.empty();
	/** The process calls go to, or are held for until it is ready; null before the first starts. Written under the lock. */
	private volatile @Nullable ManagerLink current;
	/** Frames held while the current process is not ready, and creations kept for a restart; under the lock. */
	private final CallBacklog backlog = new CallBacklog();
	/** The restart under way, which another joins until its process is ready; under the lock. */
	private @Nullable Mono<Void> restarting;
	private @Nullable ManagerLoss lost;
	private volatile @Nullable FiberProcess process;
	private final RuntimeContext runtime;
	/** Where the last process that was ready serves its shared objects, and under which prefix. */
	private volatile @Nullable SharedAddress shared;
	private final ObjectProxies proxies;
	/** The automatic restarts made within the policy's window; under the lock. */
	private final RestartBudget budget;
	private final boolean restartsWhenLost;
	/** Restarts begun, asked for or automatic. */
	private final AtomicLong restarts = new AtomicLong();
	/** Whether a process of the manager took calls once: a first start that fails fails {@code start()} instead. Under the lock. */
	private boolean everReady;

	ManagerSession(String name, Map<String, Registration> registrations, ResourceSpec resources, RuntimeContext runtime,
			ManagerRestarts policy) {
		this.name = name;
		this.budget = new RestartBudget(policy, () -> ThreadLocalRandom.current().nextDouble());
		this.restartsWhenLost = policy.maxRestarts() > 0;
		this.registrations = registrations;
		this.resources = resources;
		this.values = runtime.values();
		this.proxies = new ObjectProxies(name, registrations, this, values);
		this.runtime = runtime;
	}

	/** Where shared objects of the process that was ready last are served. */
	SharedAddress shared() {
		// Known before the manager is handed to anyone: it is its ready word.
		return Objects.requireNonNull(shared, "the manager's address");
	}

	/** Starts the manager's first process; completes once it takes calls. */
	Mono<Void> start() {
		return Mono.defer(() -> launch(next()));
	}

	/** A link for the next process, calls going to it from now; refused once the manager is lost. */
	private synchronized ManagerLink next() {
		if (lost != null) {
			throw lost.error(name, "; it cannot be started again");
		}
		ManagerLink link = ManagerLink.named();
		current = link;
		return link;
	}

	/** Starts the process of {@code link}; completes once it took its session and the calls held for it went down. */
	private Mono<Void> launch(ManagerLink link) {
		return Mono.defer(() -> {
			String route = link.sessionPrefix + "session";
			synchronized (this) {
				// Closed while a restart waited its backoff: nothing to start. Served under the lock, so a close sees it.
				if (lost != null) {
					return Mono.error(lost.error(name, "; it is not started again"));
				}
				link.served = runtime.serve(link.sessionPrefix, Routes.empty().withChannel(route, reader(), answers -> attach(link, answers)));
			}
			Duration startTimeout = runtime.config().get(ConfigKeys.START_TIMEOUT);
			return runtime.start(new ManagerHost(route, link.sharedPrefix, List.copyOf(registrations.values())), name, resources, Map.of())
					.doOnNext(started -> started(link, started))
					.flatMap(started -> link.readyWithin(started, startTimeout, name));
		});
	}

	private void started(ManagerLink link, FiberProcess started) {
		boolean given;
		// Set under the lock and only when kept: dispose() then either sees no process and completes closed itself,
		// or sees this one, whose exit completes it.
		synchronized (this) {
			given = link != current || lost != null;
			if (!given) {
				link.process = started;
				process = started;
			}
		}
		if (given) {
			// Closed, lost or restarted while it started: it takes no calls.
			started.terminate().subscribe(done -> { }, error -> { });
			return;
		}
		// join() fails with the process's error: what kept it from starting, or what it said as it ended.
		started.onExit().subscribe(code -> started.join().subscribe(null, error -> exited(link, code, error), () -> exited(link, code, null)));
	}

	private void exited(ManagerLink link, int code, @Nullable Throwable error) {
		if (ended(link, "its process ended: " + ProcessEndings.describe(code, error), error)) {
			closed.tryEmitEmpty();
		}
	}

	/**
	 * The process of {@code link} is gone, for {@code why}, without the manager being closed: it is restarted when the
	 * policy has a restart left, else the manager is lost. True when the manager is lost (or closed) now; false when
	 * it is being restarted, or a restart had replaced {@code link} already (a process stopped on purpose: its end is
	 * not the manager's).
	 */
	private boolean ended(ManagerLink link, String why, @Nullable Throwable cause) {
		PreparedRestart restart = null;
		String spent = "";
		synchronized (this) {
			if (link != current) {
				return false;
			}
			if (lost == null && restartsWhenLost && everReady) {
				long wait = budget.take(System.nanoTime());
				if (wait >= 0) {
					restart = prepare(Duration.ofNanos(wait));
				}
				else {
					spent = "; " + budget.spent();
				}
			}
		}
		if (restart == null) {
			return lost(link, why + spent, cause);
		}
		if (!link.open) {
			// A restart's process lost before it took calls: whoever waits for it (restart()) learns so now, not at the
			// start timeout; the calls held for it wait for the next one.
			link.ready.tryEmitError(new ManagerLostException("manager " + name + "'s new process was lost before it took calls ("
					+ why + "); it is started again", cause));
		}
		long number = restart.number();
		restart.begin(call -> new ManagerRestartedException("manager " + name + " lost its process (" + why + ") and was restarted (restart "
				+ number + "); " + call.what() + " did not complete, and its object's state was reset: it is made again from its constructor arguments"))
				.subscribe(done -> { }, error -> { });
		return false;
	}

	/**
	 * How the transport reads what comes up the session: an answer whose value is a large array of numbers or bytes
	 * is read into its array as it arrives, anything else whole.
	 */
	InboundReader<Arrived<Answer>> reader() {
		return AnswerFrame.reader(values);
	}

	/** The process of {@code link} opened its session: calls go down it, once it is ready; answers come up. */
	private Flux<byte[]> attach(ManagerLink link, Publisher<Arrived<Answer>> answers) {
		return Flux.create(sink -> {
			synchronized (this) {
				if (link.out != null || link != current || lost != null) {
					sink.error(new ManagerLostException("manager " + name + " already has a session, or was lost"));
					return;
				}
				link.out = sink;
			}
			sink.onCancel(() -> sessionEnded(link, "its session was cancelled"));
			Flux.from(answers).subscribe(arrived -> receive(link, arrived),
					error -> sessionEnded(link, "its connection failed (" + error.getMessage() + ")"),
					() -> sessionEnded(link, "it ended its session"));
		}, FluxSink.OverflowStrategy.BUFFER);
	}

	/** The session of {@code link} ended: the manager is lost, for its process's end if that comes soon. */
	private void sessionEnded(ManagerLink link, String why) {
		FiberProcess running;
		synchronized (this) {
			running = link.process;
		}
		if (running == null) {
			ended(link, why, null);
			return;
		}
		// exited() ends it first, for the process's end, if that comes within the wait.
		// Ending fails the calls in flight (their callers' code runs) and may start a restart: not on a timer thread.
		Mono.delay(ManagerLink.EXIT_WAIT, Schedulers.boundedElastic()).subscribe(tick -> ended(link, why, null));
	}

	/** The process of {@code link} sent its ready word: the objects are made again, then the calls held go down. */
	private void ready(ManagerLink link, String at) {
		synchronized (this) {
			if (link != current || link.out == null) {
				return;
			}
			shared = new SharedAddress(name, at, link.sharedPrefix, runtime);
			link.open = true;
			everReady = true;
			// Ready: a restart from now on is a new one.
			restarting = null;
			// From a copy: a send that fails at once loses the manager, which clears the backlog, on this very thread.
			backlog.release().forEach(link.out::next);
		}
		link.ready.tryEmitEmpty();
	}

	String name() {
		return name;
	}

	FiberProcess process() {
		// Known before the manager is handed to anyone: it started first.
		return Objects.requireNonNull(process, "the manager's process");
	}

	/** Creates an object whose calls have a deadline of {@code timeoutNanos} (0: none). */
	<A> A create(Class<A> asyncInterface, long timeoutNanos, Object... args) {
		return proxies.create(asyncInterface, timeoutNanos, args);
	}

	/**
	 * Registers a call and sends it, or holds it while a restart has no process ready, unless the manager was lost:
	 * then returns the call's error. Under the lock, so the order calls are made is the order the manager sees them; the session
	 * is open before the manager is handed out. A creation of {@code object} comes with a copy of its frame,
	 * {@code kept}, for a restart to send again.
	 */
	synchronized @Nullable ManagerLostException register(long id, PendingCalls.Call call, @Nullable StreamIn stream, byte[] frame,
			long object, byte @Nullable [] kept) {
		if (lost != null) {
			return lost.error(name, "; cannot run " + call.what());
		}
		pending.sent(id, call, stream);
		if (kept != null) {
			backlog.keep(object, kept);
		}
		ManagerLink link = current;
		if (link != null && link.open) {
			Objects.requireNonNull(link.out, "the manager's session").next(frame);
		}
		else if (kept == null) {
			// Creations go down first when the next process is ready, then these.
			backlog.hold(frame);
		}
		return null;
	}

	/**
	 * Object {@code object}'s proxy is gone: a restart need not make it again. While a restart's process is not
	 * ready, its creation is still sent (calls made before the proxy went may be held for it), then forgotten.
	 */
	synchronized void forget(long object) {
		ManagerLink link = current;
		backlog.forget(object, link != null && !link.open && lost == null);
	}

	/** Sends a frame down the session, or holds it while a restart's process is not ready; drops it once lost. */
	synchronized void down(byte[] frame) {
		ManagerLink link = current;
		if (lost != null || link == null) {
			return;
		}
		if (link.open) {
			Objects.requireNonNull(link.out, "the manager's session").next(frame);
		}
		else {
			backlog.hold(frame);
		}
	}

	/** A frame from the process of {@code link}: its ready word, a shared-call report, or a call's answer. */
	private void receive(ManagerLink link, Arrived<Answer> arrived) {
		if (link != current) {
			// From a process a restart replaced: what it says is of calls already failed.
			return;
		}
		if (arrived.read() != null) {
			pending.answer(arrived.read(), values);
			return;
		}
		byte[] frame = Objects.requireNonNull(arrived.whole(), "a frame that is not an answer read as it arrived");
		try {
			switch (FrameHeaderCodec.kind(frame)) {
				case READY -> {
					// The process's first word: where its shared objects are served. Now it takes calls.
					ready(link, ReadyFrame.decode(frame));
				}
				case SHARED_CALLS -> sharedCalls = SharedCallsFrame.decode(frame);
				case ANSWER -> pending.answer(AnswerFrame.decode(frame), values);
				case ELEMENTS -> pending.elements(ElementsFrame.decode(frame));
				default -> throw new CodecException("a manager sent a " + FrameHeaderCodec.kind(frame).description()
						+ " where its ready word, an answer or a report belongs");
			}
		}
		catch (CodecException e) {
			lost(link, "it sent a malformed frame (" + e.getMessage() + ")", null);
		}
	}

	/** The calls sent and not answered. */
	PendingCalls pending() {
		return pending;
	}

	ManagerStats stats() {
		return pending.stats(sharedCalls, restarts.get());
	}

	Flux<Duration> callLatencies() {
		return pending.latencies();
	}

	/**
	 * The manager is gone, for {@code why} (and the process's error {@code cause}, if that is how): every pending call
	 * fails, and so does every later one. Only if its process is still that of {@code expected} (any, when null):
	 * false, and nothing done, when a restart replaced it.
	 */
	private boolean lost(@Nullable ManagerLink expected, String why, @Nullable Throwable cause) {
		ManagerLoss gone = new ManagerLoss(why, cause);
		ManagerLink link;
		FluxSink<byte[]> sink;
		synchronized (this) {
			if (expected != null && expected != current) {
				return false;
			}
			if (lost != null) {
				return true;
			}
			lost = gone;
			link = current;
			sink = link == null ? null : link.out;
			backlog.clear();
		}
		if (link != null) {
			Disposable route = link.served;
			if (route != null) {
				route.dispose();
			}
			link.ready.tryEmitError(gone.error(name, " before it took calls"));
		}
		pending.failAll(pending.takeAll(), call -> gone.error(name, "; " + call.what() + " did not complete"));
		if (sink != null) {
			sink.complete();
		}
		return true;
	}

	Mono<Void> restart() {
		return Mono.defer(() -> {
			PreparedRestart restart;
			synchronized (this) {
				if (restarting != null && lost == null) {
					return restarting;
				}
				restart = prepare(Duration.ZERO);
			}
			return restart.begin(call -> new ManagerRestartedException("manager " + name + " was restarted; " + call.what()
					+ " did not complete, and its object's state was reset: it is made again from its constructor arguments"));
		});
	}

	/**
	 * Under the lock: calls go to a new process from now on, started after {@code wait}; the calls pending are taken to
	 * be failed. Refused once the manager is lost.
	 */
	private PreparedRestart prepare(Duration wait) {
		ManagerLink old = current;
		ManagerLink link = next();
		long number = restarts.incrementAndGet();
		// Taken under the lock: a call made from now on waits for the next process. Calls held for a process that never
		// took any (a restart's that could not start) were sent nowhere: they wait for the next one instead.
		boolean carried = old != null && !old.open;
		List<PendingCalls.Call> cut = carried ? List.of() : pending.takeAll();
		if (!carried) {
			backlog.dropHeld();
		}
		Mono<Void> run = (wait.isZero() ? launch(link) : Mono.delay(wait, Schedulers.boundedElastic()).then(launch(link)))
				.doOnError(error -> {
					// A process that cannot start is one more loss: restarted again while the policy allows.
					if (ended(link, "it could not be restarted (" + error.getMessage() + ")", error)) {
						dispose();
					}
				})
				.cache();
		restarting = run;
		return new PreparedRestart(old, cut, run, number, pending);
	}

	Mono<Void> closeAsync() {
		return Mono.defer(() -> {
			dispose();
			return closed.asMono();
		});
	}

	void dispose() {
		lost(null, "it was closed", null);
		FiberProcess running;
		synchronized (this) {
			ManagerLink link = current;
			running = link == null ? null : link.process;
		}
		if (running != null) {
			running.terminate().subscribe(done -> { }, error -> { });
		}
		else {
			closed.tryEmitEmpty();
		}
	}

	synchronized boolean isDisposed() {
		return lost != null;
	}

	Mono<Void> onClose() {
		return closed.asMono();
	}
}
