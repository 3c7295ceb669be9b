package io.fiberjvm.internal.pool;

import java.time.Duration;
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

	private final TaskQueue queue = new TaskQueue();
	private final Map<String, WorkerSession> sessions = new LinkedHashMap<>();
	/** The most bytes of arguments one chunk carries. */
	private final int chunkBytes;
	/** Turns an answer into the task's outcome, outside the lock. */
	private final BiConsumer<Task, Outcome> answer;
	private final WorkerProcesses processes = new WorkerProcesses();
	/** Why workers cannot start, while they cannot and no session takes tasks: calls fail with a copy of it. */
	private @Nullable WorkerStartException cannotStart;
	private long completed;
	private long failed;
	private long lost;
	private long requeued;
	private boolean terminated;
	/** Whether cancels are being made together ({@link #cancelTogether}), to be sent once they are all made. */
	private boolean cancelling;

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
				queue.add(task);
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
				queue.addAll(tasks);
				dispatch();
			}
		}
		if (refused instanceof WorkerStartException why) {
			Completions.runAll(Completions.failing(tasks, task -> Completions.copy(why)));
		}
		else if (refused != null) {
			Completions.runAll(Completions.failing(tasks, Completions::closed));
		}
	}

	/** Under the lock: why {@code task}, submitted now, fails at once, or null when it is queued. */
	private @Nullable RuntimeException refusal(Task task) {
		if (terminated) {
			return Completions.closed(task);
		}
		WorkerStartException why = cannotStart;
		return why != null && !anyTaking() ? Completions.copy(why) : null;
	}

	/** Under the lock: whether a session takes tasks, or will once it asks. */
	private boolean anyTaking() {
		for (WorkerSession session : sessions.values()) {
			if (session.taking()) {
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
		List<Task> waiting;
		synchronized (this) {
			if (terminated || anyTaking() || !stillSo.getAsBoolean()) {
				return;
			}
			cannotStart = why;
			waiting = queue.drain();
		}
		Completions.runAll(Completions.failing(waiting, task -> Completions.copy(why)));
	}

	synchronized void cancel(Task task) {
		if (task.cancelled) {
			return;
		}
		task.cancelled = true;
		queue.remove(task);
		WorkerSession running = task.runningOn;
		// Its worker interrupts it, or skips it if it has not started; a stream is cancelled through its channel.
		if (running != null && task.stream == null) {
			running.cancel(task.id);
			if (!cancelling) {
				running.flushCancels();
			}
		}
	}

	/** Runs {@code cancels} of one call's tasks under one hold of the lock, each worker told of its share in one frame. */
	void cancelTogether(Runnable cancels) {
		synchronized (this) {
			boolean outermost = !cancelling;
			cancelling = true;
			try {
				cancels.run();
			}
			finally {
				if (outermost) {
					cancelling = false;
					for (WorkerSession session : sessions.values()) {
						session.flushCancels();
					}
				}
			}
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
			processes.add(session);
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

	/** The worker of {@code session} asked for more: it is told of its cancelled tasks, and handed work if there is any. */
	synchronized void credit(WorkerSession session) {
		session.flushCancels();
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
				// A cancelled task (interrupted, skipped, refused its stream, or ended first) counts neither way.
				if (!task.cancelled && a.failed()) {
					failed++;
				}
				else if (!task.cancelled) {
					completed++;
				}
				if (!task.cancelled) {
					answered[i] = task;
				}
			}
			if (results.lastOfChunk()) {
				session.chunkEnded(results.elapsedNanos());
			}
			if (results.stuck()) {
				// Its process is replaced for that task: what its workers hold goes back as it was.
				session.reportedStuck = true;
				for (WorkerSession sibling : session.process) {
					sibling.replaced = true;
				}
			}
			dispatch();
		}
		for (int i = 0; i < answered.length; i++) {
			Task task = answered[i];
			if (task != null) {
				Outcome outcome = results.stuck() ? Outcome.stuck(task, session.worker)
						: new Outcome(session.worker, answers.get(i), null);
				Completions.run(() -> answer.accept(task, outcome));
			}
		}
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
					processes.markSharedDeath(session);
				}
				session.ended = true;
				ended.add(session);
				sessions.remove(session.worker, session);
				processes.remove(session);
				String reason = session.exitReason != null ? session.exitReason : why;
				WorkerSession.Blame blame = session.blame();
				lost += blame.charged().size();
				back.addAll(blame.back());
				if (!blame.back().isEmpty()) {
					log.debug("worker {} was lost holding {} unanswered tasks; none is charged, each runs alone", session.worker,
							blame.held());
				}
				for (Task task : blame.charged()) {
					Outcome outcome = new Outcome(session.worker, null, new WorkerLostException(task.toString(), session.worker, reason));
					after.add(() -> answer.accept(task, outcome));
				}
				session.pending.clear();
				session.chunks.clear();
			}
			if (ended.isEmpty()) {
				return;
			}
			queue.putBack(back);
			requeued += back.size();
			dispatch();
			WorkerStartException startError = cannotStart;
			if (startError != null && !anyTaking()) {
				after.addAll(Completions.failing(queue.drain(), task -> Completions.copy(startError)));
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
		Completions.runAll(after);
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
		session.retire();
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
			dropped.addAll(queue.drain());
			ended = new ArrayList<>(sessions.values());
			for (WorkerSession session : ended) {
				session.ended = true;
				dropped.addAll(session.pending.values());
				session.pending.clear();
			}
			sessions.clear();
			processes.clear();
		}
		ended.forEach(session -> session.out.complete());
		Completions.runAll(Completions.failing(dropped, task -> new PoolClosedException(why + "; " + task + " did not finish")));
	}

	synchronized long[] counters() {
		long taking = sessions.values().stream().filter(WorkerSession::taking).count();
		// Counted from the pending tables rather than kept beside them, so the figure cannot drift from what waits.
		long inFlight = 0;
		for (WorkerSession session : sessions.values()) {
			inFlight += session.pending.size();
		}
		return new long[] {taking, queue.size(), inFlight, completed, failed, lost, requeued, queue.longestWait(System.nanoTime())};
	}

	/** What the queue and the sessions look like at {@code now}, for the autoscaler. */
	synchronized PoolLoad load(long now) {
		return PoolLoad.of(queue, sessions.values(), now);
	}

	/** Under the lock: gives chunks to sessions that can take them, idle ones first. */
	private void dispatch() {
		ChunkPlacement.place(queue, sessions.values(), chunkBytes);
	}
}
