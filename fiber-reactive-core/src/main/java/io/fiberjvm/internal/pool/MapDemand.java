package io.fiberjvm.internal.pool;

/** How much a mapping call asks of its caller's publisher: as its window of elements has room, a batch at a time. */
final class MapDemand {

	/** Elements between submission and emission, a power of two. */
	static final int WINDOW = Integer.highestOneBit(ProcessPool.WINDOW);
	/** Items asked of the caller's publisher at a time, once that much room is free in the window. */
	static final int ASK = ProcessPool.INPUT_BATCH;
	/** The most items asked at once: encoding one batch overlaps the workers' running of the one before. */
	static final int MOST_ASKED = 4 * ASK;

	private MapDemand() {
	}

	/**
	 * The items to ask for now, or 0: {@code inWindow} elements are between submission and emission and {@code asked}
	 * items were asked for and have not arrived (queued ones included, so they are counted in the window already).
	 */
	static long toAsk(long inWindow, long asked) {
		long room = Math.min(WINDOW - inWindow - asked, MOST_ASKED);
		return room >= ASK || (asked == 0 && room > 0) ? room : 0;
	}
}
