package io.fiberjvm.internal.frames;

import org.jspecify.annotations.Nullable;

/**
 * What a frame is: the first byte of every frame that Fiber's services exchange between processes.
 *
 * <p>Each kind has one codec of its own in this package; control messages (a queue's grants and credits, a
 * manager's ready word and its shared-call report, a ring member's end) are kinds too, never reserved values
 * inside another kind's fields.
 */
public enum FrameKind {

	/** Carries nothing: an acknowledgement, or a request whose route says everything. */
	EMPTY(0, "empty frame"),
	/** A job-backed process's target, parent to child. */
	TARGET(1, "process target"),
	/** How a process's target ended, child to parent. */
	OUTCOME(2, "process outcome"),
	/** Queue items: a put, a producer's batch or a consumer's batch. */
	ITEMS(10, "queue batch"),
	/** Room for more items, a queue's host to a producer. */
	GRANT(11, "queue grant"),
	/** More items wanted and items acknowledged, a consumer to a queue's host. */
	CREDIT(12, "queue credit"),
	/** A number answered, such as a queue's size. */
	COUNT(13, "count"),
	/** Tasks of one function, a pool to its worker. */
	CHUNK(20, "task chunk"),
	/** Answers to tasks, a worker to its pool. */
	RESULTS(21, "result frame"),
	/** Tasks a pool's caller no longer waits for, a pool to its worker: skipped, or interrupted if running. */
	CANCEL(22, "task cancel"),
	/** A call on a manager's object or shared object. */
	CALL(30, "manager call"),
	/** The answer to one call. */
	ANSWER(31, "manager answer"),
	/** A manager's first word to its parent: where its shared objects are served. */
	READY(32, "manager ready word"),
	/** The calls a manager process served on its shared objects. */
	SHARED_CALLS(33, "shared-call report"),
	/** Elements of a call's sequence, manager to caller, as many as the caller asked for. */
	ELEMENTS(34, "manager stream elements"),
	/** More elements of a call's sequence wanted (or none: cancelled), caller to manager. */
	DEMAND(35, "manager stream demand"),
	/** A ring member's rank and address, member to parent. */
	JOIN(40, "ring join"),
	/** Every member's address, parent to members. */
	ROSTER(41, "ring roster"),
	/** A ring member has finished its target. */
	DONE(43, "ring member's end"),
	/** A collective's message, member to member. */
	MESSAGE(44, "ring message"),
	/** A request for a shared value, fetcher to owner. */
	FETCH(50, "shared value fetch"),
	/** A shared value was released: drop the copy, owner to fetcher. */
	DROP(51, "shared value drop"),
	/** A shared value's bytes, owner to fetcher. */
	VALUE(52, "shared value");

	private static final FrameKind[] BY_CODE = new FrameKind[64];

	static {
		for (FrameKind kind : values()) {
			BY_CODE[kind.code] = kind;
		}
	}

	private final byte code;
	private final String description;

	FrameKind(int code, String description) {
		this.code = (byte) code;
		this.description = description;
	}

	/** The byte that stands for this kind on the wire. */
	public byte code() {
		return code;
	}

	/** How errors name a frame of this kind ({@code "task chunk"}). */
	public String description() {
		return description;
	}

	/** The kind {@code code} stands for, or null for a byte that is no kind. */
	static @Nullable FrameKind of(byte code) {
		return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
	}
}
