package io.fiberjvm.internal.pool;

/**
 * How many tasks go to a worker at once, and whether a busy worker may be handed a second chunk.
 *
 * <p>A chunk aims at {@link #TARGET_CHUNK_NANOS} of work, so the frames, thread wake-ups and round
 * trips of a chunk are small beside it (on two cores they slow the workers' own sleeps and
 * computations); it is never more than half an even share of what is queued, so chunks shrink as the
 * queue drains and the last tasks spread over all workers. A function whose duration is not known yet goes one task at a time. A second chunk is
 * allowed only when a chunk is known to be short, so its round trip is hidden behind the first; long
 * tasks are never held back on a busy worker while another could start them.
 */
final class ChunkSizer {

	static final long TARGET_CHUNK_NANOS = 50_000_000;
	static final long PREFETCH_LIMIT_NANOS = 50_000_000;
	static final int MAX_CHUNK = 512;

	private ChunkSizer() {
	}

	/**
	 * @param meanNanos the function's mean task duration, negative if unknown
	 * @param fixed the caller's chunk size, or 0 to adapt
	 * @param queued tasks waiting
	 * @param workers workers taking tasks
	 */
	static int size(double meanNanos, int fixed, long queued, int workers) {
		if (fixed > 0) {
			return fixed;
		}
		if (meanNanos < 0) {
			return 1;
		}
		long byDuration = meanNanos <= 0 ? MAX_CHUNK : (long) (TARGET_CHUNK_NANOS / meanNanos);
		// Half of an even share: a worker may hold two chunks, and the last ones shrink as the queue drains.
		long share = 2L * Math.max(1, workers);
		long fairShare = Math.max(1, (queued + share - 1) / share);
		return (int) Math.max(1, Math.min(Math.min(byDuration, fairShare), MAX_CHUNK));
	}

	/** Whether a worker already running a chunk may be given another {@code tasks} tasks of this function. */
	static boolean mayPrefetch(double meanNanos, int tasks) {
		return meanNanos >= 0 && meanNanos * tasks <= PREFETCH_LIMIT_NANOS;
	}
}
