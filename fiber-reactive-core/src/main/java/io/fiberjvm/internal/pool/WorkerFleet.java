package io.fiberjvm.internal.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.FiberProcess;
import io.fiberjvm.ProcessFailedException;
import io.fiberjvm.ResourceSpec;
import io.fiberjvm.backend.RunStatus;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.internal.runtime.ProcessEndings;
import io.fiberjvm.internal.pool.WorkerHost.Slot;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.WorkerStartException;
import io.fiberjvm.runtime.ProcessTarget;
import io.fiberjvm.runtime.RuntimeContext;

/**
 * The workers of one pool and the processes hosting them: starts as many as the pool wants (at most a few
 * processes at once), replaces lost ones, resizes, and retires them. A worker is a slot in a process; a process
 * hosts one or more and they share its fate.
 *
 * <p>A process that fails to start ({@link WorkerStarts} says which do) counts toward a backoff: after consecutive
 * failed starts the next process starts alone, after a jittered, growing delay, and after
 * {@code worker-start-failures} of them, with no worker taking tasks, the dispatcher fails its calls until one does.
 * A worker that connects resets the count. A process killed while starting is replaced as if it had not started, at
 * once unless earlier starts failed. None of its workers connecting within the start timeout of its start is a
 * failed start, and the process is stopped.
 */
final class WorkerFleet {

	private static final Logger log = LoggerFactory.getLogger(WorkerFleet.class);
	/**
	 * Processes starting at once per core of this machine. JVMs starting together finish sooner than in turns (a
	 * started worker's first tasks compete with the next starts either way), and a child connects back within the
	 * start timeout, not the keep-alive's; the bound keeps the memory of many starting JVMs in check.
	 */
	static final int STARTS_PER_CORE = 4;

	private final RuntimeContext runtime;
	private final String pool;
	private final int perProcess;
	private final ResourceSpec resources;
	/** The target of a worker process, given the names of the workers it hosts. */
	private final Function<List<String>, ProcessTarget> workerTarget;
	private final Dispatcher dispatcher;
	private final PoolLifecycle lifecycle;
	/** Told, outside the lock, when the last worker of a pool that replaces none has ended. */
	private final Runnable allEnded;
	private final StartLimit startLimit;
	private final WorkerStarts starts;
	/** How long a process may take from its launch until one of its workers connects. */
	private final java.time.Duration startTimeout;

	// Guarded by this.
	private final WorkerSlots slots;
	private int wanted;
	private boolean restartScheduled;

	WorkerFleet(RuntimeContext runtime, String pool, int size, int perProcess, ResourceSpec resources,
			Function<List<String>, ProcessTarget> workerTarget, RestartBackoff backoff, Dispatcher dispatcher,
			PoolLifecycle lifecycle, Runnable allEnded) {
		this.runtime = runtime;
		this.pool = pool;
		this.wanted = size;
		this.perProcess = perProcess;
		this.resources = resources;
		this.workerTarget = workerTarget;
		this.dispatcher = dispatcher;
		this.lifecycle = lifecycle;
		this.allEnded = allEnded;
		this.startLimit = new StartLimit(runtime.jobsRunOnThisMachine()
				? STARTS_PER_CORE * Math.max(1, Runtime.getRuntime().availableProcessors()) : 64);
		this.slots = new WorkerSlots(pool, perProcess);
		this.starts = new WorkerStarts(pool, runtime.config().get(ConfigKeys.WORKER_START_FAILURES), backoff);
		this.startTimeout = runtime.config().get(ConfigKeys.START_TIMEOUT);
	}

	/** Starts the workers the pool wants and does not have: at once, or one process at a time after failed starts. */
	void ensureWorkers() {
		List<WorkerHost> toStart = new ArrayList<>();
		synchronized (this) {
			if (!lifecycle.replacesWorkers()) {
				return;
			}
			long missing = slots.missing(wanted);
			if (missing <= 0) {
				return;
			}
			Mono<Long> delay = starts.nextStartDelay();
			if (delay != null) {
				if (!restartScheduled) {
					restartScheduled = true;
					// Starting a process is blocking work: not on the timer's own thread, which RSocket's keep-alives share.
					delay.publishOn(Schedulers.boundedElastic()).subscribe(tick -> restartOne());
				}
				return;
			}
			while (missing > 0) {
				WorkerHost host = slots.newHost((int) Math.min(missing, perProcess));
				missing -= host.slots.size();
				toStart.add(host);
			}
		}
		toStart.forEach(this::start);
	}

	private void restartOne() {
		WorkerHost host;
		synchronized (this) {
			restartScheduled = false;
			long missing = slots.missing(wanted);
			host = lifecycle.replacesWorkers() && missing > 0 ? slots.newHost((int) Math.min(missing, perProcess)) : null;
		}
		if (host != null) {
			start(host);
		}
	}

	/** Starts the process now, or once it is its turn. */
	private void start(WorkerHost host) {
		if (startLimit.admit(host)) {
			launch(host);
		}
	}

	private void launch(WorkerHost host) {
		synchronized (this) {
			host.launched = true;
		}
		List<String> workers = host.slots.stream().map(slot -> slot.name).toList();
		runtime.startReusable(workerTarget.apply(workers), host.name, resources).subscribe(process -> {
			started(host, process);
			// The process's own bounds (its wait for a machine, then its start) end when it has fetched its target; the
			// initializer runs after that: this bound runs from then until a worker connects.
			process.onRunning().then(Mono.delay(startTimeout, Schedulers.boundedElastic()))
					.subscribe(tick -> startTimedOut(host), error -> { });
			Mono.firstWithSignal(process.onRunning(), process.onExit().then()).subscribe(null, error -> {
				synchronized (this) {
					host.startError = error;
				}
				startEnded();
			}, this::startEnded);
		}, error -> {
			try {
				ended(host, "it could not start: " + error.getMessage(), error, -1);
			}
			finally {
				startEnded();
			}
		});
	}

	/** No worker of {@code host} has connected within the start timeout: it failed to start, and is stopped. */
	private void startTimedOut(WorkerHost host) {
		FiberProcess process;
		synchronized (this) {
			if (!host.starting() || host.slots.stream().noneMatch(slots::holds)) {
				return;
			}
			host.startError = new ProcessFailedException(host.name, -1, "worker process " + host.name + " did not connect a worker within "
					+ startTimeout + " of its start (fiber.start-timeout); it was stopped", null);
			process = host.process;
		}
		log.warn("pool {}: worker process {} did not connect a worker within {}; stopping it", pool, host.name, startTimeout);
		stop(process);
	}

	/** A process is running (or gave up starting): the next waiting one may start; those no longer wanted end. */
	private void startEnded() {
		StartLimit.Turn turn = startLimit.ended(host -> !unwanted(host));
		turn.unwanted().forEach(host -> ended(host, "it was retired before it started", null, -1));
		if (turn.next() != null) {
			launch(turn.next());
		}
	}

	private void started(WorkerHost host, FiberProcess process) {
		boolean timedOut;
		synchronized (this) {
			host.process = process;
			timedOut = host.startTimedOut() && host.starting();
		}
		// Its start timed out before the backend handed it over: it is stopped now.
		if (unwanted(host) || timedOut) {
			process.terminate().subscribe(done -> { }, error -> { });
		}
		// join() completes empty on exit code 0 and fails with the remote error otherwise.
		process.onExit().subscribe(code -> process.join().subscribe(null,
				error -> ended(host, ProcessEndings.describe(code, error), error, code),
				() -> ended(host, ProcessEndings.describe(code, null), null, code)));
	}

	/** Whether none of the process's workers is wanted any more, or the pool was terminated. */
	private synchronized boolean unwanted(WorkerHost host) {
		return host.retiring() || lifecycle.isTerminated();
	}

	/**
	 * The process is gone, or never started: so are its workers, whose tasks are lost once their sessions have
	 * delivered what they sent; replacements start.
	 *
	 * @param exitCode the process's exit code, over 128 when a signal killed it; -1 when it has none
	 */
	private void ended(WorkerHost host, String why, @Nullable Throwable error, int exitCode) {
		List<Slot> gone = new ArrayList<>();
		List<Slot> lostHere = new ArrayList<>();
		boolean last;
		WorkerStarts.Verdict verdict = WorkerStarts.Verdict.NONE;
		long admittedThen;
		synchronized (this) {
			boolean replacing = lifecycle.replacesWorkers();
			gone.addAll(slots.remove(host));
			if (gone.isEmpty()) {
				return;
			}
			gone.stream().filter(slot -> !slot.retiring && replacing).forEach(lostHere::add);
			slots.lost(lostHere.size());
			if (!lostHere.isEmpty() && host.starting()) {
				verdict = starts.ended(host, exitCode, error, why);
			}
			last = !replacing && slots.isEmpty();
			admittedThen = starts.admissions();
		}
		if (!lostHere.isEmpty()) {
			starts.report(host, lostHere, why, error, verdict);
		}
		WorkerStartException giveUp = verdict.giveUp();
		if (giveUp != null) {
			// A worker admitted since opens its session next: then the pool does not give up.
			dispatcher.cannotStart(giveUp, () -> starts.admissions() == admittedThen);
		}
		dispatcher.exited(dispatcher.sessions(gone.stream().map(slot -> slot.name).toList()), why);
		ensureWorkers();
		if (last) {
			allEnded.run();
		}
	}

	/** A worker's session arrives: whether it is one of ours, to take tasks. */
	synchronized Admission admit(String worker) {
		Slot slot = slots.get(worker);
		// A worker of a process being stopped would take tasks it cannot finish.
		if (slot == null || lifecycle.isTerminated() || slot.host.stopping) {
			return Admission.UNKNOWN;
		}
		if (slot.retiring) {
			return Admission.RETIRED;
		}
		slot.attached = true;
		starts.admitted();
		return Admission.ADMITTED;
	}

	/** The name of the process hosting {@code worker}, or the worker's own name when it has none. */
	synchronized String hostOf(String worker) {
		Slot slot = slots.get(worker);
		return slot == null ? worker : slot.host.name;
	}

	/** Whether {@code worker} was retired (or is gone). */
	synchronized boolean isRetired(String worker) {
		Slot slot = slots.get(worker);
		return slot == null || slot.retiring;
	}

	/**
	 * The session is gone: its tasks are lost, and a worker whose session failed is stopped (retiring or not:
	 * a frozen process would otherwise never exit) and replaced, with every worker its process hosts.
	 */
	void sessionEnded(WorkerSession session, String why, boolean failed) {
		FiberProcess process = null;
		List<String> siblings = new ArrayList<>();
		synchronized (this) {
			Slot slot = slots.get(session.worker);
			// A retiring worker's session may end; its process goes only once none of its workers is wanted, or when
			// a task stuck in it is why it is replaced.
			if (slot != null && (session.replaced || !slot.retiring || (failed && slot.host.retiring()))) {
				process = slot.host.process;
				slot.host.stopping = true;
				slot.host.slots.stream().filter(sibling -> sibling != slot).forEach(sibling -> siblings.add(sibling.name));
			}
		}
		// The siblings go with the process: none may be handed the tasks lost here, and each ends once its own
		// connection has delivered what its worker sent.
		dispatcher.exited(dispatcher.sessions(siblings), why);
		dispatcher.gone(List.of(session), why);
		stop(process);
	}

	synchronized int size() {
		return wanted;
	}

	/** Changes how many workers the pool keeps; refused once the pool is closing. */
	void resize(int workers) {
		List<Slot> surplus = new ArrayList<>();
		synchronized (this) {
			// Checked under the fleet's lock, so a close cannot slip between the check and the new size.
			if (lifecycle.isClosing()) {
				throw new PoolClosedException("pool " + pool + " is closed; cannot resize it");
			}
			wanted = workers;
			surplus.addAll(slots.retireBeyond(workers));
		}
		surplus.forEach(this::retire);
		ensureWorkers();
	}

	/**
	 * Retires those of {@code idle} that still take tasks, in that order, as long as more than {@code floor} workers
	 * are wanted and take tasks; each retired is one fewer wanted. Returns how many were retired. A worker handed a chunk since it
	 * was seen idle finishes it first, as any retiring worker does.
	 */
	int retireIdle(List<String> idle, int floor) {
		List<Slot> chosen = new ArrayList<>();
		synchronized (this) {
			if (lifecycle.isClosing()) {
				return 0;
			}
			// As long as more than the fewest take tasks: workers still starting may never come.
			long working = slots.all().stream().filter(s -> s.attached && !s.retiring).count();
			for (String worker : idle) {
				Slot slot = slots.get(worker);
				if (wanted > floor && working > floor && slot != null && slot.attached && !slot.retiring) {
					working--;
					slot.retiring = true;
					wanted--;
					chosen.add(slot);
				}
			}
		}
		chosen.forEach(this::retire);
		return chosen.size();
	}

	/**
	 * Adds {@code add} workers to those wanted, up to {@code max}, and starts them; while the pool drains too, since its
	 * accepted calls still need workers. False, and nothing done, once it retires its workers or was terminated.
	 */
	boolean grow(int add, int max) {
		synchronized (this) {
			if (!lifecycle.replacesWorkers()) {
				return false;
			}
			wanted = Math.max(wanted, Math.min(max, wanted + add));
		}
		ensureWorkers();
		return true;
	}

	/**
	 * Workers wanted and not taking tasks yet: those whose processes wait their turn or start, and those to be started
	 * once a failed start's backoff is over.
	 */
	synchronized long starting() {
		return slots.starting(wanted);
	}

	/** Retires every worker: the pool has ended its accepted calls. */
	void retireAll() {
		List<Slot> all = wantNone();
		dropWaiting("the pool closed before it started");
		all.forEach(this::retire);
		if (all.isEmpty()) {
			allEnded.run();
		}
	}

	/** Stops every worker's process now: the pool was terminated. */
	void terminateAll() {
		List<Slot> all = wantNone();
		dropWaiting("the pool was terminated before it started");
		List<FiberProcess> processes;
		synchronized (this) {
			processes = all.stream().map(s -> s.host.process).filter(p -> p != null).distinct().toList();
		}
		processes.forEach(this::stop);
		if (all.isEmpty()) {
			allEnded.run();
		}
	}

	private synchronized List<Slot> wantNone() {
		wanted = 0;
		List<Slot> all = new ArrayList<>(slots.all());
		all.forEach(s -> s.retiring = true);
		return all;
	}

	/**
	 * Lets the worker finish what it holds, then its session ends (and its process exits once all it hosts
	 * have); a process still starting (none of its workers attached) is stopped once none of them is wanted.
	 */
	private void retire(Slot slot) {
		if (!dispatcher.retire(slot.name)) {
			FiberProcess process;
			synchronized (this) {
				process = slot.host.retiring() && slot.host.starting() ? slot.host.process : null;
			}
			stop(process);
		}
	}

	/** Ends every process still waiting to start, as none will now. */
	private void dropWaiting(String why) {
		startLimit.drain().forEach(host -> ended(host, why, null, -1));
	}

	private void stop(@Nullable FiberProcess process) {
		if (process != null && process.isAlive()) {
			process.terminate().subscribe(done -> { }, error -> { });
		}
	}

	/** Each worker now, for {@code fiber ps}: name, its process's name, and waiting, starting, working or retiring. */
	synchronized List<RunStatus.Worker> states() {
		return slots.states();
	}

	/** The processes whose workers take tasks now, each once. */
	synchronized List<FiberProcess> processes() {
		return slots.processes();
	}

	/** Workers started, lost while wanted, and started to replace lost ones. */
	synchronized long[] counters() {
		return slots.counters();
	}
}
