package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.FluxSink;

import io.fiberjvm.internal.frames.Answer;
import io.fiberjvm.internal.frames.ChunkFrame;
import io.fiberjvm.internal.frames.ResultsFrame;
import io.fiberjvm.pool.PoolClosedException;
import io.fiberjvm.pool.WorkerLostException;

/**
 * Hands queued tasks to worker sessions and answers them: the pool's scheduler and pending table.
 *
 * <p>All state changes under this object's lock, and chunks are emitted under it too (that only
 * queues frames), which keeps each session's chunks in the order its function cache twin saw them.
 * Callers' sinks are completed after the lock is released: they run user code.
 */
final class Dispatcher {

	private final ArrayDeque<Task> queue = new ArrayDeque<>();
	private final Map<String, WorkerSession> sessions = new LinkedHashMap<>();
	/** The most bytes of arguments one chunk carries. */
	private final int chunkBytes;
	/** Turns an answer into the task's outcome, outside the lock. */
	private final BiConsumer<Task, Outcome> answer;
	/** Told, outside the lock, when a worker finishes its first chunk. */
	private final Consumer<String> firstChunkDone;
	private long queued;
	private long inFlight;
	private long completed;
	private long failed;
	private long lost;
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
	 * @param firstChunkDone told, outside the lock, when a worker finishes its first chunk
	 */
	Dispatcher(int chunkBytes, BiConsumer<Task, Outcome> answer, Consumer<String> firstChunkDone) {
		this.chunkBytes = chunkBytes;
		this.answer = answer;
		this.firstChunkDone = firstChunkDone;
	}

	void submit(Task task) {
		boolean refused;
		synchronized (this) {
			refused = terminated;
			if (!refused) {
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
		if (refused) {
			task.sink.error(new PoolClosedException("the pool was terminated; " + task + " did not run"));
		}
	}

	/** Queues first attempts of one call, in order, under one hold of the lock. */
	void submitAll(List<Task> tasks) {
		boolean refused;
		synchronized (this) {
			refused = terminated;
			if (!refused) {
				for (Task task : tasks) {
					task.queued = true;
					queue.addLast(task);
				}
				queued += tasks.size();
				dispatch();
			}
		}
		if (refused) {
			List<Runnable> after = new ArrayList<>(tasks.size());
			for (Task task : tasks) {
				after.add(() -> task.sink.error(new PoolClosedException("the pool was terminated; " + task + " did not run")));
			}
			runAll(after);
		}
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

	/** A worker's session opened; null when the pool was terminated. */
	@Nullable WorkerSession open(String worker, FluxSink<byte[]> out) {
		WorkerSession session = new WorkerSession(worker, out);
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
		boolean firstChunk = false;
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
					chunk.function().record(results.elapsedNanos(), chunk.tasks());
				}
				firstChunk = ++session.chunksDone == 1;
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
		if (firstChunk) {
			complete(() -> firstChunkDone.accept(session.worker));
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
		org.slf4j.LoggerFactory.getLogger(Dispatcher.class).warn("a task's completion failed: {}", e.toString());
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
			for (WorkerSession session : ending) {
				if (session.ended) {
					continue;
				}
				session.ended = true;
				ended.add(session);
				sessions.remove(session.worker, session);
				for (Task task : session.pending.values()) {
					task.runningOn = null;
					if (!task.cancelled) {
						Outcome outcome = new Outcome(session.worker, null, new WorkerLostException(task.toString(), session.worker, why));
						after.add(() -> answer.accept(task, outcome));
					}
				}
				inFlight -= session.pending.size();
				lost += session.pending.size();
				session.pending.clear();
				session.chunks.clear();
			}
			if (ended.isEmpty()) {
				return;
			}
			dispatch();
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
			for (Task task : queue) {
				if (task.queued) {
					task.queued = false;
					dropped.add(task);
				}
			}
			queue.clear();
			queued = 0;
			ended = new ArrayList<>(sessions.values());
			for (WorkerSession session : ended) {
				session.ended = true;
				dropped.addAll(session.pending.values());
				session.pending.clear();
			}
			sessions.clear();
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
		long taking = sessions.values().stream().filter(s -> !s.retiring).count();
		return new long[] {taking, queued, inFlight, completed, failed, lost};
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
				if (!s.retiring && !s.ended) {
					live++;
				}
			}
			// A streaming task goes alone, to a worker that holds nothing.
			int size = head.function.streams ? 1 : ChunkSizer.size(head.function.meanNanos, head.chunkSize, queued, live);
			WorkerSession target = null;
			for (WorkerSession s : sessions.values()) {
				if (s.canTake() && s.chunks.isEmpty()) {
					target = s;
					break;
				}
			}
			if (target == null && !head.function.streams && ChunkSizer.mayPrefetch(head.function.meanNanos, size)) {
				for (WorkerSession s : sessions.values()) {
					if (s.canTake()) {
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

	/** Under the lock: takes up to {@code size} queued tasks of {@code function} from the head and sends them. */
	private void send(WorkerSession session, ShippedFunction function, int size) {
		List<ChunkFrame.Task> tasks = new ArrayList<>(Math.min(size, 64));
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
			if (task.function != function || (!tasks.isEmpty() && bytes + task.size() > chunkBytes)) {
				break;
			}
			queue.pollFirst();
			task.queued = false;
			task.runningOn = session;
			queued--;
			inFlight++;
			bytes += task.size();
			session.pending.put(task);
			// Only a first attempt is framed in its argument's own array: an earlier attempt's frame may still be on
			// its way out of a connection, and a read-only view is copied into a frame of its own.
			ByteBuffer arg = task.arg;
			tasks.add(new ChunkFrame.Task(task.id, arg == null || task.attempt == 1 ? arg : arg.asReadOnlyBuffer()));
		}
		if (!known) {
			session.functions.put(function.id, Boolean.TRUE);
		}
		session.chunks.add(new WorkerSession.SentChunk(function, tasks.size()));
		// The pattern matters only to a worker reading the function, so it travels with the function's bytes.
		session.out.next(known ? new ChunkFrame(function.id, null, List.of(), tasks).encode()
				: new ChunkFrame(function.id, function.bytes, List.of(function.allow), tasks).encode());
	}
}
