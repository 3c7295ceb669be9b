package io.fiberjvm.internal.pool;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.FluxSink;

import io.fiberjvm.internal.frames.CancelFrame;
import io.fiberjvm.internal.frames.ChunkFrame;

/**
 * The parent's side of one worker's session, guarded by the dispatcher's lock: the pending table
 * (tasks handed to this worker and not answered), the chunks it holds, and the twin of its function cache.
 */
final class WorkerSession {

	/**
	 * What a lost worker's death costs the tasks it held.
	 *
	 * @param held the tasks it held unanswered, cancelled ones included
	 * @param charged those charged an attempt for the death
	 * @param back those to queue again without using an attempt, each now a suspect
	 */
	record Blame(int held, List<Task> charged, List<Task> back) {
	}

	/**
	 * A chunk sent and not finished: its function, to time when it ends, and its tasks in the order they run, to
	 * know which ones a lost worker was running.
	 */
	record SentChunk(ShippedFunction function, List<Task> tasks) {

		/** Whether its worker takes nothing more while it holds it. */
		boolean alone() {
			return tasks.size() == 1 && tasks.get(0).alone();
		}

		/** Whether its JVM takes nothing more while it holds it. */
		boolean isolated() {
			return tasks.size() == 1 && tasks.get(0).isolated();
		}
	}

	final String worker;
	/** The name of the process hosting it, whose other workers share its fate. */
	final String host;
	/** The sessions of that process, itself among them, while it is open ({@link WorkerProcesses}). */
	List<WorkerSession> process = List.of(this);
	final FluxSink<byte[]> out;
	final TaskTable pending = new TaskTable();
	final ArrayDeque<SentChunk> chunks = new ArrayDeque<>();
	final FunctionCache<Boolean> functions = new FunctionCache<>();
	boolean retiring;
	/** Its process has exited: it takes nothing more, and ends once its connection has delivered what it sent. */
	boolean exited;
	/** How its process ended, which its lost tasks' errors say; null while it runs. */
	@Nullable String exitReason;
	boolean ended;
	/**
	 * Set when a session of its process died holding tasks while the process's sessions held more than one between
	 * them: the process may have died of a task another of its workers held, so none of its tasks is charged.
	 */
	boolean sharedDeath;
	/**
	 * Set when its process is replaced because a task of one of its workers did not stop after its deadline: its
	 * death is that task's, so the others it held are queued again as they were, neither charged nor suspects.
	 */
	volatile boolean replaced;
	/** Set when its own worker reported a task stuck: it ran nothing after, so what it still holds never ran. */
	boolean reportedStuck;
	/** When it was last handed a chunk or finished one, in {@link System#nanoTime()}'s terms; under the dispatcher's lock. */
	long lastBusy = System.nanoTime();
	/** Ids of tasks it runs whose callers cancelled them, to tell its worker once it has room for a frame. */
	private final List<Long> cancels = new ArrayList<>(0);

	WorkerSession(String worker, String host, FluxSink<byte[]> out) {
		this.worker = worker;
		this.host = host;
		this.out = out;
	}

	/**
	 * Whether the worker asked for another chunk and holds fewer than two, and no task that goes alone.
	 */
	boolean canTake() {
		return taking() && chunks.size() < 2 && out.requestedFromDownstream() > 0 && !holdsAlone();
	}

	/** Whether it takes tasks, or will once it asks: not retiring, nor gone, nor being replaced. */
	boolean taking() {
		return !retiring && !exited && !ended && !replaced;
	}

	/** How long it has held nothing at {@code now}, in nanoseconds; 0 while it holds a chunk or takes no tasks. */
	long idleNanos(long now) {
		return taking() && chunks.isEmpty() ? Math.max(0, now - lastBusy) : 0;
	}

	/** Whether it holds a task that goes alone. */
	boolean holdsAlone() {
		return !chunks.isEmpty() && (chunks.peekFirst().alone() || chunks.peekLast().alone());
	}

	/** Whether it holds a task that has its JVM to itself. */
	boolean holdsIsolated() {
		return !chunks.isEmpty() && (chunks.peekFirst().isolated() || chunks.peekLast().isolated());
	}

	@Override
	public String toString() {
		return worker;
	}

	/** The caller of task {@code id}, which this session's worker holds, cancelled it: the worker is told at the next {@link #flushCancels}. */
	void cancel(long id) {
		if (!ended && !exited) {
			cancels.add(id);
		}
	}

	/**
	 * Tells the worker of the tasks cancelled since it was last told, when it has room for a frame: a worker keeps
	 * room for one beside its chunks, and asks for it again as soon as a cancel arrives.
	 */
	void flushCancels() {
		if (!cancels.isEmpty() && !ended && out.requestedFromDownstream() > 0) {
			byte[] frame = new CancelFrame(cancels).encode();
			cancels.clear();
			out.next(frame);
		}
	}

	/** Its worker finished the chunk it ran, in {@code elapsedNanos}: the function is timed; a retiring session holding nothing ends. */
	void chunkEnded(long elapsedNanos) {
		lastBusy = System.nanoTime();
		SentChunk chunk = chunks.poll();
		if (chunk != null) {
			chunk.function().record(elapsedNanos, chunk.tasks().size());
		}
		endIfRetired();
	}

	/** It takes no new chunk, and ends once it has answered what it holds. */
	void retire() {
		retiring = true;
		endIfRetired();
	}

	private void endIfRetired() {
		if (retiring && chunks.isEmpty()) {
			out.complete();
		}
	}

	/**
	 * As the session ends with tasks unanswered: which of them its worker's death is charged to.
	 *
	 * <p>A worker that held one unanswered task, in a process whose other workers held none, was running it, and is
	 * charged with it. One that held several, or whose process's workers did together ({@link #sharedDeath}), may
	 * have died of any of them: the answers it sent last may have died with it, unsent, and it may have started its
	 * next chunk. So none is charged: each goes back as a suspect, which runs {@link Task#alone()}, to be charged only
	 * for a death of its own. A task that may not run twice is charged whenever it may have run. A cancelled task
	 * counts among those held, and is neither charged nor sent back. When the process was {@link #replaced}, the
	 * tasks go back as they were (but for one that may not run twice), and all of them when this session's own
	 * worker {@link #reportedStuck reported} the stuck task, since it ran nothing after it.
	 */
	Blame blame() {
		List<Task> held = new ArrayList<>();
		for (SentChunk chunk : chunks) {
			for (Task task : chunk.tasks()) {
				if (pending.get(task.id) == task) {
					task.runningOn = null;
					held.add(task);
				}
			}
		}
		boolean known = held.size() == 1 && !sharedDeath;
		List<Task> charged = new ArrayList<>(1);
		List<Task> back = new ArrayList<>();
		for (Task task : held) {
			if (task.cancelled) {
				continue;
			}
			if (reportedStuck) {
				back.add(task);
			}
			else if (known && !replaced || !task.idempotent) {
				charged.add(task);
			}
			else if (replaced) {
				back.add(task);
			}
			else {
				task.suspect = true;
				back.add(task);
			}
		}
		return new Blame(held.size(), charged, back);
	}

	/**
	 * Takes up to {@code size} tasks of {@code function} from the head of {@code queue}, and of at most
	 * {@code chunkBytes} of arguments (one task alone however large), and sends them as a chunk.
	 */
	void send(TaskQueue queue, ShippedFunction function, int size, int chunkBytes) {
		List<ChunkFrame.Task> tasks = new ArrayList<>(Math.min(size, 64));
		List<Task> sent = new ArrayList<>(Math.min(size, 64));
		boolean known = functions.get(function.id) != null;
		// The function's bytes count against the frame when they travel with this chunk.
		long bytes = known ? 0 : function.bytes.length;
		// A chunk's tasks share one deadline, which the frame carries.
		long timeoutNanos = 0;
		while (tasks.size() < size) {
			Task task = queue.head();
			if (task == null || !tasks.isEmpty() && (task.function != function || task.alone() || bytes + task.size() > chunkBytes
					|| task.timeoutNanos != timeoutNanos)) {
				break;
			}
			timeoutNanos = task.timeoutNanos;
			queue.takeHead();
			task.runningOn = this;
			bytes += task.size();
			pending.put(task);
			sent.add(task);
			// Only a first attempt is framed in its argument's own array: an earlier attempt's frame may still be on
			// its way out of a connection, and a read-only view is copied into a frame of its own.
			ByteBuffer arg = task.arg;
			tasks.add(new ChunkFrame.Task(task.id, arg == null || task.attempt == 1 ? arg : arg.asReadOnlyBuffer()));
		}
		if (!known) {
			functions.put(function.id, Boolean.TRUE);
		}
		chunks.add(new SentChunk(function, sent));
		lastBusy = System.nanoTime();
		// The pattern matters only to a worker reading the function, so it travels with the function's bytes.
		out.next(known ? new ChunkFrame(function.id, timeoutNanos, null, List.of(), tasks).encode()
				: new ChunkFrame(function.id, timeoutNanos, function.bytes, List.of(function.allow), tasks).encode());
	}
}
