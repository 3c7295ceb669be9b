package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.FluxSink;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.WorkerLostException;
import io.fiberjvm.pool.WorkerStartException;

/**
 * Hands queued tasks to worker sessions and answers them: the pool's scheduler and pending table.
 *
 * <p>All state changes under this object's lock, and chunks are emitted under it too (that only
 * queues frames), which keeps each session's chunks in the order its function cache twin saw them.
 * Callers' sinks are completed after the lock is released: they run user code.
 */
final class Dispatcher {

	/** How long the session of a worker whose process exited waits for its connection to deliver what it sent. */
	static final Duration EXIT_DRAIN = Duration.ofSeconds(1);

	private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

	private final ArrayDeque<Task> queue = new ArrayDeque<>();
	private final Map<String, WorkerSession> sessions = new LinkedHashMap<>();
	/** The most bytes of arguments one chunk carries. */
	private final int chunkBytes;
	/** Turns an answer into the task's outcome, outside the lock. */
	private final BiConsumer<Task, Outcome> answer;
	/** The sessions of each worker process, by its name: they share its fate. */
	private final Map<String, List<WorkerSession>> hosts = new java.util.HashMap<>();
	/** Why workers cannot start, while they cannot and no session takes tasks: calls fail with a copy of it. */
	private @Nullable WorkerStartException cannotStart;
	private long queued;
	private long inFlight;
	private long completed;
	private long failed;
	private long lost;
	private long requeued;
	private boolean terminated;

	/**
	 * How an attempt ended: its worker's answer, or the error that ended it without one.
	 *
	 * @param worker the worker it ran on
	 * @param answer the worker's answer, or null
	 * @param error why there is no answer (the worker was lost), or null
	 */
	record Outcome(String worker, @Nullable Answer answer, @Nullable Throwable error) {
	}

	/**
	 * @param chunkBytes the most bytes of arguments one chunk carries
	 * @param answer turns an attempt's outcome into its caller's signal, outside the lock
	 */
	Dispatcher(int chunkBytes, BiConsumer<Task, Outcome> answer) {
		this.chunkBytes = chunkBytes;
		this.answer = answer;
	}

	void submit(Task task) {
		@Nullable RuntimeException refused;
		synchronized (this) {
			refused = refusal(task);
			if (refused == null) {
				task.queued = true;
				// A retry goes first: an ordered call is waiting for it.
				if (task.attempt > 1) {
					queue.addFirst(task);
				}
				else {
					queue.addLast(task);
				}
				queued++;
				dispatch();
			}
		}
		if (refused != null) {
			task.sink.error(refused);
		}
	}

	/** Queues first attempts of one call, in order, under one hold of the lock. */
	void submitAll(List<Task> tasks) {
		@Nullable RuntimeException refused;
		synchronized (this) {
			refused = tasks.isEmpty() ? null : refusal(tasks.get(0));
			if (refused == null) {
				for (Task task : tasks) {
					task.queued = true;
					queue.addLast(task);
				}
				queued += tasks.size();
				dispatch();
			}
		}
		if (refused != null) {
			RuntimeException startError = refused instanceof PoolClosedException ? null : refused;
			List<Runnable> after = new ArrayList<>(tasks.size());
			for (Task task : tasks) {
				RuntimeException error = startError != null ? startError : closed(task);
				after.add(() -> task.sink.error(error));
			}
			runAll(after);
		}
	}

	/** Under the lock: why {@code task}, submitted now, fails at once, or null when it is queued. */
	private @Nullable RuntimeException refusal(Task task) {
		if (terminated) {
			return closed(task);
		}
		WorkerStartException why = cannotStart;
		return why != null && !anyTaking() ? copy(why) : null;
	}

	private static PoolClosedException closed(Task task) {
		return new PoolClosedException("the pool was terminated; " + task + " did not run");
	}

	/** Under the lock: whether a session takes tasks, or will once it asks. */
	private boolean anyTaking() {
		for (WorkerSession session : sessions.values()) {
			if (!session.retiring && !session.exited && !session.ended) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Workers fail to start, for {@code why}, and no session takes tasks: every queued task fails with it, and so does
	 * every task submitted, until a session opens. Nothing changes while a session takes tasks, or when
	 * {@code stillSo} says a worker was admitted since (its session opens next): the pool goes on with it, and the
	 * fleet says so again at its next failed start.
	 */
	void cannotStart(WorkerStartException why, BooleanSupplier stillSo) {
		List<Task> failing;
		synchronized (this) {
			if (terminated || anyTaking() || !stillSo.getAsBoolean()) {
				return;
			}
			cannotStart = why;
			failing = drainQueue();
		}
		failAll(failing, why);
	}

	/** Each caller's own error, so that what a caller's operators add to it stays that caller's. */
	private static WorkerStartException copy(WorkerStartException why) {
		return new WorkerStartException(why.pool(), why.failures(), why.getCause() != null ? why.getCause() : why);
	}

	/** Under the lock: every task waiting in the queue, no longer queued. */
	private List<Task> drainQueue() {
		List<Task> drained = new ArrayList<>();
		for (Task task : queue) {
			if (task.queued) {
				task.queued = false;
				drained.add(task);
			}
		}
		queue.clear();
		queued = 0;
		return drained;
	}

	private void failAll(List<Task> tasks, WorkerStartException why) {
		List<Runnable> after = new ArrayList<>(tasks.size());
		for (Task task : tasks) {
			if (!task.cancelled) {
				after.add(() -> task.sink.error(copy(why)));
			}
		}
		runAll(after);
	}

	synchronized void cancel(Task task) {
		if (task.cancelled) {
			return;
		}
		task.cancelled = true;
		if (task.queued) {
			task.queued = false;
			queued--;
		}
	}

	/** A worker's session opened, hosted by the process named {@code host}; null when the pool was terminated. */
	@Nullable WorkerSession open(String worker, String host, FluxSink<byte[]> out) {
		WorkerSession session = new WorkerSession(worker, host, out);
		WorkerSession previous;
		synchronized (this) {
			if (terminated) {
				return null;
			}
			previous = sessions.get(worker);
		}
		if (previous != null) {
			// A worker has one session; a second one means the first is gone.
			lost(previous, "it opened a new session");
		}
		synchronized (this) {
			if (terminated) {
				return null;
			}
			sessions.put(worker, session);
			hosts.computeIfAbsent(host, name -> new ArrayList<>(1)).add(session);
			// A worker started: the pool takes calls again.
			cannotStart = null;
		}
		return session;
	}

	/** The attempt at streaming task {@code id} that {@code worker} runs now, or null when it runs no such task. */
	synchronized @Nullable StreamAttempt streaming(String worker, long id) {
		WorkerSession session = sessions.get(worker);
		Task task = session == null ? null : session.pending.get(id);
		return task == null || task.cancelled ? null : task.stream;
	}

	/** The worker asked for more; hand it work if there is any. */
	synchronized void credit() {
		dispatch();
	}

	void results(WorkerSession session, ResultsFrame results) {
		List<Answer> answers = results.answers();
		// The tasks answered, by the answer's place in the frame; null for an answer no caller waits for.
		Task[] answered = new Task[answers.size()];
		synchronized (this) {
			if (session.ended) {
				return;
			}
			for (int i = 0; i < answered.length; i++) {
				Answer a = answers.get(i);
				Task task = session.pending.remove(a.id());
				if (task == null) {
					continue;
				}
				task.runningOn = null;
				inFlight--;
				if (!a.failed()) {
					completed++;
				}
				else if (task.stream == null || !task.cancelled) {
					// A cancelled streaming task is refused its stream; that is not its function failing.
					failed++;
				}
				if (!task.cancelled) {
					answered[i] = task;
				}
			}
			if (results.lastOfChunk()) {
				WorkerSession.SentChunk chunk = session.chunks.poll();
				if (chunk != null) {
					chunk.function().record(results.elapsedNanos(), chunk.tasks().length);
				}
				if (session.retiring && session.chunks.isEmpty()) {
					session.out.complete();
				}
			}
			dispatch();
		}
		for (int i = 0; i < answered.length; i++) {
			Task task = answered[i];
			if (task != null) {
				complete(task, new Outcome(session.worker, answers.get(i), null));
			}
		}
	}

	/** Completes one task's caller; one that throws is logged, so no other caller of a frame is stranded. */
	private void complete(Task task, Outcome outcome) {
		try {
			answer.accept(task, outcome);
		}
		catch (RuntimeException | LinkageError e) {
			completionFailed(e);
		}
	}

	/** Runs each completion even when one throws, so no caller of a frame is stranded. */
	private static void runAll(List<Runnable> completions) {
		completions.forEach(Dispatcher::complete);
	}

	private static void complete(Runnable completion) {
		try {
			completion.run();
		}
		catch (RuntimeException | LinkageError e) {
			completionFailed(e);
		}
	}

	private static void completionFailed(Throwable e) {
		log.warn("a task's completion failed: {}", e.toString());
	}

	/** The session must end (a malformed frame, a newer session): the worker is told why; its pending tasks fail with {@link WorkerLostException}. */
	void lost(WorkerSession session, String why) {
		end(List.of(session), why, true);
	}

	/**
	 * The sessions' process or connections are gone: as {@link #lost}, all at once (so no task lost with one
	 * of them is handed to another of them) and without telling the workers, who cannot hear it (Reactor
	 * would log the undeliverable error as dropped).
	 */
	void gone(List<WorkerSession> ending, String why) {
		end(ending, why, false);
	}

	private void end(List<WorkerSession> ending, String why, boolean tell) {
		List<WorkerSession> ended = new ArrayList<>(ending.size());
		List<Runnable> after = new ArrayList<>();
		synchronized (this) {
			List<Task> back = new ArrayList<>();
			for (WorkerSession session : ending) {
				if (session.ended) {
					continue;
				}
				if (!tell) {
					sharedDeath(session);
				}
				session.ended = true;
				ended.add(session);
				sessions.remove(session.worker, session);
				forget(session);
				String reason = session.exitReason != null ? session.exitReason : why;
				for (Task task : blame(session, back)) {
					Outcome outcome = new Outcome(session.worker, null, new WorkerLostException(task.toString(), session.worker, reason));
					after.add(() -> answer.accept(task, outcome));
				}
				session.pending.clear();
				session.chunks.clear();
			}
			if (ended.isEmpty()) {
				return;
			}
			// Back in front of fresh work, in the order they were sent: their callers wait for them.
			for (int i = back.size() - 1; i >= 0; i--) {
				Task task = back.get(i);
				task.queued = true;
				queue.addFirst(task);
			}
			queued += back.size();
			requeued += back.size();
			dispatch();
			WorkerStartException startError = cannotStart;
			if (startError != null && !anyTaking()) {
				for (Task task : drainQueue()) {
					if (!task.cancelled) {
						after.add(() -> task.sink.error(copy(startError)));
					}
				}
			}
		}
		for (WorkerSession session : ended) {
			if (tell) {
				session.out.error(new PoolClosedException("the pool dropped this session: " + why));
			}
			else {
				session.out.complete();
			}
		}
		runAll(after);
	}

	/**
	 * Under the lock, as {@code session} ends with its process or connection gone: when it held tasks and the sessions
	 * of its process, those not ended yet, hold more than one unanswered task together, each is marked as having
	 * shared a death, since the process may have died of any of those tasks, whichever session held it. A session
	 * that ends holding nothing (a retired one, say) marks none.
	 */
	private void sharedDeath(WorkerSession session) {
		if (session.pending.isEmpty()) {
			return;
		}
		List<WorkerSession> process = hosts.getOrDefault(session.host, List.of(session));
		int held = 0;
		for (WorkerSession sibling : process) {
			if (!sibling.ended) {
				held += sibling.pending.size();
			}
		}
		if (held > 1) {
			for (WorkerSession sibling : process) {
				sibling.sharedDeath = true;
			}
		}
	}

	/** Under the lock: {@code session} is no longer among its process's. */
	private void forget(WorkerSession session) {
		List<WorkerSession> process = hosts.get(session.host);
		if (process != null) {
			process.remove(session);
			if (process.isEmpty()) {
				hosts.remove(session.host);
			}
		}
	}

	/**
	 * Under the lock, for a session that ended with tasks unanswered: the tasks charged with an attempt for its
	 * worker's death; the others go into {@code back}, to be queued again without using an attempt.
	 *
	 * <p>A worker that held one unanswered task, in a process whose other workers held none, was running it, and is
	 * charged with it. One that held several, or whose process's workers did together, may have died of any of them:
	 * the answers it sent last may have died with it, unsent, and it may have started its next chunk. So none is
	 * charged: each goes back as a suspect, which runs {@link Task#alone()}, to be charged only for a death of its
	 * own. A task that may not run twice is charged whenever it may have run, and always runs alone, so it is never
	 * among several unless its process's other workers held tasks too. A cancelled task counts among those held.
	 */
	private List<Task> blame(WorkerSession session, List<Task> back) {
		List<Task> held = new ArrayList<>();
		for (WorkerSession.SentChunk chunk : session.chunks) {
			for (Task task : chunk.tasks()) {
				if (session.pending.get(task.id) == task) {
					task.runningOn = null;
					inFlight--;
					held.add(task);
				}
			}
		}
		boolean known = held.size() == 1 && !session.sharedDeath;
		List<Task> charged = new ArrayList<>(1);
		for (Task task : held) {
			if (task.cancelled) {
				continue;
			}
			if (known || !task.idempotent) {
				charged.add(task);
			}
			else {
				task.suspect = true;
				back.add(task);
			}
		}
		lost += charged.size();
		if (!back.isEmpty()) {
			log.debug("worker {} was lost holding {} unanswered tasks; none is charged, each runs alone", session.worker, held.size());
		}
		return charged;
	}

	/**
	 * The sessions' process has exited: they take nothing more, and end, for {@code why}, once their connections
	 * have delivered what the workers sent before they died, or after {@link #EXIT_DRAIN} at the latest (a
	 * connection whose peer vanished without closing it).
	 */
	void exited(List<WorkerSession> exiting, String why) {
		if (exiting.isEmpty()) {
			return;
		}
		synchronized (this) {
			for (WorkerSession session : exiting) {
				session.exited = true;
				session.exitReason = why;
			}
		}
		// Ending sessions completes callers, whose code may block: not on a timer thread.
		Mono.delay(EXIT_DRAIN, Schedulers.boundedElastic()).subscribe(tick -> gone(exiting, why));
	}

	/** The worker takes no new chunk, and its session ends once it has answered what it holds. */
	synchronized boolean retire(String worker) {
		WorkerSession session = sessions.get(worker);
		if (session == null) {
			return false;
		}
		session.retiring = true;
		if (session.chunks.isEmpty()) {
			session.out.complete();
		}
		return true;
	}

	/** The sessions of those of {@code workers} that have one. */
	synchronized List<WorkerSession> sessions(java.util.Collection<String> workers) {
		List<WorkerSession> found = new ArrayList<>(workers.size());
		for (String worker : workers) {
			WorkerSession session = sessions.get(worker);
			if (session != null) {
				found.add(session);
			}
		}
		return found;
	}

	/** Fails everything queued or running with {@link PoolClosedException} and refuses what comes later. */
	void terminate(String why) {
		List<Task> dropped = new ArrayList<>();
		List<WorkerSession> ended;
		synchronized (this) {
			terminated = true;
			dropped.addAll(drainQueue());
			ended = new ArrayList<>(sessions.values());
			for (WorkerSession session : ended) {
				session.ended = true;
				dropped.addAll(session.pending.values());
				session.pending.clear();
			}
			sessions.clear();
			hosts.clear();
			inFlight = 0;
		}
		ended.forEach(session -> session.out.complete());
		List<Runnable> after = new ArrayList<>(dropped.size());
		for (Task task : dropped) {
			if (!task.cancelled) {
				after.add(() -> task.sink.error(new PoolClosedException(why + "; " + task + " did not finish")));
			}
		}
		runAll(after);
	}

	synchronized long[] counters() {
		long taking = sessions.values().stream().filter(s -> !s.retiring && !s.exited).count();
		return new long[] {taking, queued, inFlight, completed, failed, lost, requeued};
	}

	/** Under the lock: gives chunks to sessions that can take them, idle ones first. */
	private void dispatch() {
		while (true) {
			Task head = queue.peekFirst();
			while (head != null && !head.queued) {
				queue.pollFirst();
				head = queue.peekFirst();
			}
			if (head == null) {
				return;
			}
			int live = 0;
			for (WorkerSession s : sessions.values()) {
				if (!s.retiring && !s.exited && !s.ended) {
					live++;
				}
			}
			// A task that goes alone goes to a worker that holds nothing.
			int size = head.alone() ? 1 : ChunkSizer.size(head.function.meanNanos, head.chunkSize, queued, live);
			WorkerSession target = null;
			for (WorkerSession s : sessions.values()) {
				if (s.canTake() && s.chunks.isEmpty() && processAllows(s, head)) {
					target = s;
					break;
				}
			}
			if (target == null && !head.alone() && ChunkSizer.mayPrefetch(head.function.meanNanos, size)) {
				for (WorkerSession s : sessions.values()) {
					if (s.canTake() && processAllows(s, head)) {
						target = s;
						break;
					}
				}
			}
			if (target == null) {
				return;
			}
			send(target, head.function, size);
		}
	}

	/**
	 * Under the lock: whether the process of {@code session} may be handed {@code head} there: a suspect only to a
	 * process whose workers hold nothing, and nothing to a process one of whose workers holds a suspect, so a process
	 * that dies holding one held nothing else.
	 */
	private boolean processAllows(WorkerSession session, Task head) {
		List<WorkerSession> process = hosts.get(session.host);
		if (process == null || process.size() == 1) {
			return true;
		}
		for (WorkerSession sibling : process) {
			if (sibling != session && !sibling.chunks.isEmpty() && (head.isolated() || sibling.holdsIsolated())) {
				return false;
			}
		}
		return true;
	}

	/** Under the lock: takes up to {@code size} queued tasks of {@code function} from the head and sends them. */
	private void send(WorkerSession session, ShippedFunction function, int size) {
		List<ChunkFrame.Task> tasks = new ArrayList<>(Math.min(size, 64));
		List<Task> sent = new ArrayList<>(Math.min(size, 64));
		boolean known = session.functions.get(function.id) != null;
		// The function's bytes count against the frame when they travel with this chunk.
		long bytes = known ? 0 : function.bytes.length;
		while (tasks.size() < size) {
			Task task = queue.peekFirst();
			if (task == null) {
				break;
			}
			if (!task.queued) {
				queue.pollFirst();
				continue;
			}
			if (!tasks.isEmpty() && (task.function != function || task.alone() || bytes + task.size() > chunkBytes)) {
				break;
			}
			queue.pollFirst();
			task.queued = false;
			task.runningOn = session;
			queued--;
			inFlight++;
			bytes += task.size();
			session.pending.put(task);
			sent.add(task);
			// Only a first attempt is framed in its argument's own array: an earlier attempt's frame may still be on
			// its way out of a connection, and a read-only view is copied into a frame of its own.
			ByteBuffer arg = task.arg;
			tasks.add(new ChunkFrame.Task(task.id, arg == null || task.attempt == 1 ? arg : arg.asReadOnlyBuffer()));
		}
		if (!known) {
			session.functions.put(function.id, Boolean.TRUE);
		}
		session.chunks.add(new WorkerSession.SentChunk(function, sent.toArray(new Task[0])));
		// The pattern matters only to a worker reading the function, so it travels with the function's bytes.
		session.out.next(known ? new ChunkFrame(function.id, null, List.of(), tasks).encode()
				: new ChunkFrame(function.id, function.bytes, List.of(function.allow), tasks).encode());
	}
}
