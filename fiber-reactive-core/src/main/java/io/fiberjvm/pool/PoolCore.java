package io.fiberjvm.pool;

import java.io.Serializable;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import io.fiberjvm.Fiber;
import io.fiberjvm.FiberProcess;
import io.fiberjvm.LatencyFeed;
import io.fiberjvm.RemoteException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.codec.CodecException;
import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.queue.QueueContext;

/**
 * What every view of one pool shares: its workers (started, replaced with backoff, resized, retired),
 * its dispatcher, its lifecycle and counters.
 */
final class PoolCore {

	private static final Logger log = LoggerFactory.getLogger(PoolCore.class);
	private static final SecureRandom RANDOM = new SecureRandom();

	/** One worker: a session with the pool, hosted by a worker process, from its start to its end. */
	private static final class Slot {
		final String name;
		final Host host;
		boolean retiring;
		boolean attached;
		/** Whether it finished a chunk: a worker that dies before that counts toward the restart backoff. */
		boolean worked;

		Slot(String name, Host host) {
			this.name = name;
			this.host = host;
		}
	}

	/** One worker process and the workers it hosts; they live and die with it. */
	private static final class Host {
		final String name;
		final List<Slot> slots = new ArrayList<>();
		FiberProcess process;
		/** Whether its start was asked for; until then it waits its turn (the start limit). */
		boolean launched;

		Host(String name) {
			this.name = name;
		}

		boolean retiring() {
			return slots.stream().allMatch(s -> s.retiring);
		}
	}

	private final Fiber fiber;
	private final PoolService service;
	private final String id;
	private final String name;
	private final int perProcess;
	private final ResourceSpec resources;
	private final byte[] initializer;
	private final List<String> initializerAllow;
	private final RestartBackoff backoff;
	final Dispatcher dispatcher;
	final ShippedValues values;
	private final Map<Object, ShippedFunction> shipped = Collections.synchronizedMap(new WeakHashMap<>());
	/** Two-argument functions, keyed by the user's function, shipped inside their wrapper. */
	private final Map<Object, ShippedFunction> shippedPairs = Collections.synchronizedMap(new WeakHashMap<>());
	private final AtomicLong taskIds = new AtomicLong();
	final AtomicLong retried = new AtomicLong();
	final AtomicLong submitted = new AtomicLong();
	/** Each task's time from submission to its final outcome. */
	private final LatencyFeed latencies = new LatencyFeed();
	private final Sinks.Empty<Void> closed = Sinks.empty();

	// Guarded by this.
	private final Map<String, Slot> slots = new LinkedHashMap<>();
	private int target;
	private int failures;
	private boolean restartScheduled;
	/** No new calls; accepted ones still run, on workers replaced as needed. */
	private boolean closing;
	/** Every accepted call has ended (or the pool was terminated): workers are being retired. */
	private boolean shuttingDown;
	private boolean terminated;
	private long openCalls;
	private long started;
	private long lostWorkers;
	private long replaced;
	/** Lost workers not yet replaced. */
	private long toReplace;
	private int counter;
	private int hostCounter;
	/** Processes started and not yet running; more wait in {@link #waitingToStart}. */
	private int starting;
	private final java.util.ArrayDeque<Host> waitingToStart = new java.util.ArrayDeque<>();
	private final int startLimit;

	PoolCore(Fiber fiber, PoolService service, String name, int size, int perProcess, ResourceSpec resources,
			byte[] initializer, List<String> initializerAllow, RestartBackoff backoff) {
		this.fiber = fiber;
		this.service = service;
		this.id = Long.toString(RANDOM.nextLong() >>> 1, 36);
		this.name = name;
		this.perProcess = perProcess;
		this.resources = resources;
		this.initializer = initializer;
		this.initializerAllow = initializerAllow;
		this.backoff = backoff;
		this.target = size;
		// JVMs starting on this machine's cores starve each other (and running workers miss keep-alives):
		// start as many at a time as there are cores. On a cluster, nodes start pods side by side.
		this.startLimit = fiber.jobsRunOnThisMachine() ? Math.max(2, Runtime.getRuntime().availableProcessors()) : 64;
		int maxFrame = Math.toIntExact(fiber.config().get(ConfigKeys.MAX_FRAME_SIZE));
		this.values = fiber.resolvingHandles(QueueContext::current).values();
		this.dispatcher = new Dispatcher(maxFrame, this::answer, this::worked);
	}

	String id() {
		return id;
	}

	String name() {
		return name;
	}

	void open() {
		service.register(this);
		ensureWorkers();
	}

	long nextTaskId() {
		return taskIds.incrementAndGet();
	}

	/** The function, serialized once per function object. */
	ShippedFunction ship(Serializable function, Class<?> userClass) {
		return ship(shipped, function, function, userClass);
	}

	/** {@code wrapper}, serialized once per user function {@code key}, so its timing carries over between calls. */
	ShippedFunction shipPair(Object key, Serializable wrapper) {
		return ship(shippedPairs, key, wrapper, key.getClass());
	}

	private ShippedFunction ship(Map<Object, ShippedFunction> cache, Object key, Serializable function, Class<?> userClass) {
		synchronized (cache) {
			ShippedFunction known = cache.get(key);
			if (known == null) {
				// Read back with handles resolving, so a function capturing a queue or shared object passes the check.
				known = fiber.resolvingHandles(() -> new ShippedFunction(function, userClass, values));
				if (known.bytes.length > dispatcher.functionBytes()) {
					throw new CodecException("the function " + known + " is " + known.bytes.length + " bytes serialized, more than "
							+ dispatcher.functionBytes() + " (a quarter of fiber.max-frame-size); pass large data as arguments "
							+ "or through a queue instead of capturing it");
				}
				cache.put(key, known);
			}
			return known;
		}
	}

	/** {@link #ship} when the call starts, so a function that cannot travel fails the call, not the caller. */
	java.util.function.Supplier<ShippedFunction> shipLater(Serializable function, Class<?> userClass) {
		return () -> ship(function, userClass);
	}

	// ---- calls ----

	/** Counts a call in; refuses it once the pool is closing. */
	synchronized void callStarted(String what) {
		if (closing) {
			throw new PoolClosedException("pool " + name + " is " + (terminated ? "terminated" : "closed") + "; cannot " + what);
		}
		openCalls++;
	}

	void callEnded() {
		boolean shutDown;
		synchronized (this) {
			openCalls--;
			shutDown = closing && !terminated && openCalls == 0;
		}
		if (shutDown) {
			shutDown();
		}
	}

	/** Completes a task's caller from its worker's answer; runs outside the dispatcher's lock. */
	private void answer(Task task, Dispatcher.Outcome outcome) {
		try {
			complete(task, outcome);
		}
		catch (RuntimeException | LinkageError e) {
			// One caller's failure (a result class that cannot initialize, say) must not strand the rest of a frame.
			task.sink.error(e);
		}
	}

	private void complete(Task task, Dispatcher.Outcome outcome) {
		if (outcome.error() != null) {
			task.sink.error(outcome.error());
			return;
		}
		TaskFrames.Answer answer = outcome.answer();
		if (answer.failed()) {
			task.sink.error(new TaskFailedException(task.toString(), outcome.worker(), RemoteException.decode(TaskFrames.utf8(answer.bytes()))));
			return;
		}
		Object value;
		try {
			value = fiber.resolvingHandles(() -> values.read(answer.bytes(), answer.allow() == null ? List.of(task.function.allow)
					: List.of(task.function.allow, answer.allow()), "the result of " + task));
		}
		catch (CodecException e) {
			task.sink.error(e);
			return;
		}
		if (value == null) {
			task.sink.success();
		}
		else {
			task.sink.success(value);
		}
	}

	// ---- workers ----

	/** A worker's session arrives: it is one of ours, and it now takes tasks. */
	Flux<byte[]> attach(String worker, Publisher<byte[]> inbound) {
		return Flux.create(sink -> {
			synchronized (this) {
				Slot slot = slots.get(worker);
				if (slot == null || terminated) {
					sink.error(new PoolClosedException("pool " + name + " has no worker '" + worker + "' (retired, or never started)"));
					return;
				}
				if (slot.retiring) {
					// Retired while its process started; the process's other workers may still be wanted.
					Flux.from(inbound).subscribe(frame -> { }, error -> { });
					sink.complete();
					return;
				}
				slot.attached = true;
			}
			WorkerSession session = dispatcher.open(worker, sink);
			if (session == null) {
				sink.error(new PoolClosedException("pool " + name + " was terminated"));
				return;
			}
			boolean retiredMeanwhile;
			synchronized (this) {
				Slot slot = slots.get(worker);
				retiredMeanwhile = slot == null || slot.retiring;
			}
			if (retiredMeanwhile) {
				// Retired between the check above and the session's opening: it ends once it holds nothing.
				dispatcher.retire(worker);
			}
			sink.onRequest(n -> dispatcher.credit());
			sink.onCancel(() -> sessionEnded(session, "its session was cancelled", true));
			Flux.from(inbound).subscribe(frame -> dispatcher.results(session, frame),
					error -> sessionEnded(session, "its connection failed (" + error.getMessage() + ")", true),
					() -> sessionEnded(session, "it ended its session", false));
			ensureWorkers();
		}, FluxSink.OverflowStrategy.ERROR);
	}

	/**
	 * The session is gone: its tasks are lost, and a worker whose session failed is stopped (retiring or
	 * not: a frozen process would otherwise never exit) and replaced, with every worker its process hosts.
	 */
	private void sessionEnded(WorkerSession session, String why, boolean failed) {
		FiberProcess process = null;
		List<String> siblings = new ArrayList<>();
		synchronized (this) {
			Slot slot = slots.get(session.worker);
			// A retiring worker's session may end; its process goes only once none of its workers is wanted.
			if (slot != null && (!slot.retiring || (failed && slot.host.retiring()))) {
				process = slot.host.process;
				slot.host.slots.stream().filter(sibling -> sibling != slot).forEach(sibling -> siblings.add(sibling.name));
			}
		}
		// The siblings go with the process, at once: none may be handed the tasks lost here.
		List<WorkerSession> ending = new ArrayList<>(List.of(session));
		ending.addAll(dispatcher.sessions(siblings));
		dispatcher.gone(ending, why);
		if (process != null && process.isAlive()) {
			process.terminate().subscribe(done -> { }, error -> { });
		}
	}

	private void ensureWorkers() {
		List<Host> toStart = new ArrayList<>();
		synchronized (this) {
			if (shuttingDown) {
				return;
			}
			long missing = missing();
			if (missing <= 0) {
				return;
			}
			if (failures > 0) {
				// Workers failed to get going: start one process at a time, later and later.
				if (!restartScheduled) {
					restartScheduled = true;
					Mono.delay(backoff.delay(failures)).subscribe(tick -> {
						synchronized (this) {
							restartScheduled = false;
						}
						Host host = newHostIfWanted();
						if (host != null) {
							start(host);
						}
					});
				}
				return;
			}
			while (missing > 0) {
				Host host = newHost((int) Math.min(missing, perProcess));
				missing -= host.slots.size();
				toStart.add(host);
			}
		}
		toStart.forEach(this::start);
	}

	/** Under the lock: workers wanted and not there; losses the pool no longer needs made good are not replacements. */
	private long missing() {
		long missing = target - activeSlots();
		toReplace = Math.min(toReplace, Math.max(0, missing));
		return missing;
	}

	/** Under the lock. */
	private long activeSlots() {
		return slots.values().stream().filter(s -> !s.retiring).count();
	}

	private synchronized Host newHostIfWanted() {
		long missing = missing();
		if (shuttingDown || missing <= 0) {
			return null;
		}
		return newHost((int) Math.min(missing, perProcess));
	}

	/** Under the lock: a process to start with {@code workers} workers; named after its worker when it hosts one. */
	private Host newHost(int workers) {
		Host host = null;
		for (int i = 0; i < workers; i++) {
			String slotName = name + "-w" + (++counter);
			if (host == null) {
				host = new Host(perProcess == 1 ? slotName : name + "-p" + (++hostCounter));
			}
			Slot slot = new Slot(slotName, host);
			host.slots.add(slot);
			slots.put(slot.name, slot);
			started++;
			if (toReplace > 0) {
				toReplace--;
				replaced++;
			}
		}
		return host;
	}

	/** Starts the process now, or once fewer than {@link #startLimit} are starting. */
	private void start(Host host) {
		synchronized (this) {
			if (starting >= startLimit) {
				waitingToStart.add(host);
				return;
			}
			starting++;
		}
		launch(host);
	}

	private void launch(Host host) {
		synchronized (this) {
			host.launched = true;
		}
		List<String> routes = host.slots.stream().map(slot -> PoolService.route(id, slot.name)).toList();
		fiber.address()
				.flatMap(parent -> fiber.process(new PoolWorker(parent.toString(), routes, initializer, initializerAllow))
						.name(host.name).resources(resources).start())
				.subscribe(process -> {
					started(host, process);
					Mono.firstWithSignal(process.onRunning(), process.onExit().then())
							.subscribe(null, error -> startEnded(), this::startEnded);
				}, error -> {
					try {
						ended(host, "it could not start: " + error.getMessage(), error);
					}
					finally {
						startEnded();
					}
				});
	}

	/** A process is running (or gave up starting): the next waiting one may start; those no longer wanted end. */
	private void startEnded() {
		Host next = null;
		List<Host> unwanted = new ArrayList<>();
		synchronized (this) {
			starting--;
			while (next == null && !waitingToStart.isEmpty()) {
				Host waiting = waitingToStart.poll();
				if (waiting.retiring() || terminated) {
					unwanted.add(waiting);
				}
				else {
					next = waiting;
					starting++;
				}
			}
		}
		unwanted.forEach(host -> ended(host, "it was retired before it started", null));
		if (next != null) {
			launch(next);
		}
	}

	/** Under no lock: ends every process still waiting to start, as none will now. */
	private void dropWaiting(String why) {
		List<Host> dropped;
		synchronized (this) {
			dropped = new ArrayList<>(waitingToStart);
			waitingToStart.clear();
		}
		dropped.forEach(host -> ended(host, why, null));
	}

	private void started(Host host, FiberProcess process) {
		boolean stop;
		synchronized (this) {
			host.process = process;
			stop = host.retiring() || terminated;
		}
		if (stop) {
			process.terminate().subscribe(done -> { }, error -> { });
		}
		// join() completes empty on exit code 0 and fails with the remote error otherwise.
		process.onExit().subscribe(code -> process.join().subscribe(null,
				error -> ended(host, "it exited with code " + code, error),
				() -> ended(host, "it exited with code " + code, null)));
	}

	/** The process is gone, or never started: so are its workers, whose tasks are lost; replacements start. */
	private void ended(Host host, String why, Throwable error) {
		List<Slot> gone = new ArrayList<>();
		List<Slot> lost = new ArrayList<>();
		boolean finished;
		synchronized (this) {
			for (Slot slot : host.slots) {
				if (slots.remove(slot.name) != null) {
					gone.add(slot);
					if (!slot.retiring && !shuttingDown) {
						lost.add(slot);
					}
				}
			}
			if (gone.isEmpty()) {
				return;
			}
			lostWorkers += lost.size();
			toReplace += lost.size();
			// A process none of whose workers took a task failed to get going: once toward the backoff.
			if (!lost.isEmpty() && lost.stream().noneMatch(s -> s.worked)) {
				failures++;
			}
			finished = shuttingDown && slots.isEmpty();
		}
		if (!lost.isEmpty()) {
			String who = host.slots.size() == 1 ? "worker " + host.name
					: "worker process " + host.name + " (workers " + String.join(", ", lost.stream().map(s -> s.name).toList()) + ")";
			if (lost.stream().anyMatch(s -> s.worked)) {
				log.info("pool {}: {} was lost: {}", name, who, why);
			}
			else {
				log.warn("pool {}: {} ended before taking tasks ({}); next start in {}", name, who,
						error != null ? error.getMessage() : why, backoff.delay(failures));
			}
		}
		dispatcher.gone(dispatcher.sessions(gone.stream().map(slot -> slot.name).toList()), why);
		ensureWorkers();
		if (finished) {
			finish();
		}
	}

	/** A worker finished its first chunk: workers can get going, so replacements need no delay. */
	private void worked(String worker) {
		synchronized (this) {
			Slot slot = slots.get(worker);
			if (slot != null) {
				slot.worked = true;
			}
			failures = 0;
		}
	}

	synchronized int size() {
		return target;
	}

	void resize(int workers) {
		if (workers < 1) {
			throw new IllegalArgumentException("a pool needs at least 1 worker, not " + workers);
		}
		List<Slot> surplus = new ArrayList<>();
		synchronized (this) {
			if (closing) {
				throw new PoolClosedException("pool " + name + " is closed; cannot resize it");
			}
			target = workers;
			List<Slot> active = slots.values().stream().filter(s -> !s.retiring).toList();
			// Retire workers still starting first, as they hold no tasks, and the newest first, so that
			// whole processes empty and exit.
			List<Slot> order = new ArrayList<>(active.stream().filter(s -> !s.attached).toList());
			Collections.reverse(order);
			List<Slot> attached = new ArrayList<>(active.stream().filter(s -> s.attached).toList());
			Collections.reverse(attached);
			order.addAll(attached);
			for (int i = 0; i < active.size() - workers; i++) {
				Slot slot = order.get(i);
				slot.retiring = true;
				surplus.add(slot);
			}
		}
		surplus.forEach(this::retire);
		ensureWorkers();
	}

	/**
	 * Lets the worker finish what it holds, then its session ends (and its process exits once all it hosts
	 * have); a process still starting (none of its workers attached) is stopped once none of them is wanted.
	 */
	private void retire(Slot slot) {
		if (!dispatcher.retire(slot.name)) {
			FiberProcess process;
			synchronized (this) {
				process = slot.host.retiring() && slot.host.slots.stream().noneMatch(s -> s.attached) ? slot.host.process : null;
			}
			if (process != null) {
				process.terminate().subscribe(done -> { }, error -> { });
			}
		}
	}

	/** Each worker now, for {@code fiber ps}: name, its process's name, and waiting, starting, working or retiring. */
	synchronized List<io.fiberjvm.RunStatus.Worker> workerStates() {
		return slots.values().stream().map(slot -> new io.fiberjvm.RunStatus.Worker(slot.name, slot.host.name,
				slot.retiring ? "retiring" : slot.attached ? "working" : slot.host.launched ? "starting" : "waiting"))
				.toList();
	}

	synchronized List<FiberProcess> workers() {
		return slots.values().stream().filter(s -> s.attached && !s.retiring).map(s -> s.host.process)
				.filter(p -> p != null && p.isAlive()).distinct().toList();
	}

	PoolStats stats() {
		long[] d = dispatcher.counters();
		synchronized (this) {
			return new PoolStats((int) d[0], target, d[1], d[2], d[3], d[4], d[5], retried.get(), started, lostWorkers, submitted.get(),
					replaced);
		}
	}

	// ---- lifecycle ----

	void close() {
		boolean shutDown;
		synchronized (this) {
			if (closing) {
				return;
			}
			closing = true;
			shutDown = openCalls == 0;
		}
		if (shutDown) {
			shutDown();
		}
	}

	/** Every accepted call has ended: retire every worker. */
	private void shutDown() {
		List<Slot> all;
		boolean empty;
		synchronized (this) {
			if (shuttingDown) {
				return;
			}
			shuttingDown = true;
			target = 0;
			all = new ArrayList<>(slots.values());
			all.forEach(s -> s.retiring = true);
			empty = slots.isEmpty();
		}
		dropWaiting("the pool closed before it started");
		all.forEach(this::retire);
		if (empty) {
			finish();
		}
	}

	void terminate() {
		List<Slot> all;
		synchronized (this) {
			if (terminated) {
				return;
			}
			terminated = true;
			closing = true;
			shuttingDown = true;
			target = 0;
			all = new ArrayList<>(slots.values());
			all.forEach(s -> s.retiring = true);
		}
		dispatcher.terminate("pool " + name + " was terminated");
		dropWaiting("the pool was terminated before it started");
		List<FiberProcess> processes;
		synchronized (this) {
			processes = all.stream().map(s -> s.host.process).filter(p -> p != null).distinct().toList();
		}
		processes.forEach(p -> p.terminate().subscribe(done -> { }, error -> { }));
		if (all.isEmpty()) {
			finish();
		}
	}

	private void finish() {
		dispatcher.terminate("pool " + name + " was closed");
		service.unregister(this);
		closed.tryEmitEmpty();
	}

	Mono<Void> onClose() {
		return closed.asMono();
	}

	/** A task reached its final outcome {@code nanos} after it was submitted. */
	void taskEnded(long nanos) {
		latencies.record(nanos);
	}

	Flux<Duration> taskLatencies() {
		return latencies.flux();
	}
}
