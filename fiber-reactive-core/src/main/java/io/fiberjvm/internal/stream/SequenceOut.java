package io.fiberjvm.internal.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.codec.ShippedValues;
import io.fiberjvm.internal.frames.ElementsFrame;

/**
 * A sequence on its way to the process that asked for it (a manager call's {@code Flux}, a pool task's
 * {@code Publisher}), as fast as that process asks: each demand is passed on from the given executor (a
 * manager's object's own, so a lazy sequence, an iterator or a stream, is read between the object's other
 * calls, never beside them); so is {@link #cancelOnExecutor}. Elements go up in batches of what one demand
 * made, at most {@link #BATCH} elements or {@link #BATCH_BYTES} bytes a frame (a larger element alone), none
 * held more than a few milliseconds for its batch, in the order they were made, and the end goes up after the
 * last of them.
 */
public final class SequenceOut extends EarlyDemandSubscriber<Object> {

	/** Elements a frame carries at most. */
	public static final int BATCH = 512;

	/** Bytes of elements a frame carries at most, unless one element alone is larger. */
	public static final int BATCH_BYTES = 4 << 20;

	/** Elements the receiving side asks for ahead of its subscriber, at most: its {@code DEMAND} window. */
	public static final int PREFETCH = 256;

	/** How long an element may wait for others to fill its batch. */
	static final long MAX_WAIT_NANOS = 5_000_000;

	private final long call;
	private final String what;
	private final Executor executor;
	private final ShippedValues values;
	private final Consumer<byte[]> up;
	/** Sends the call's end: its error, or null when the sequence completed. */
	private final Consumer<@Nullable Throwable> end;
	private List<byte[]> batch = new ArrayList<>();
	private long batchBytes;
	private boolean demanding;
	/** When a batch last went up. */
	private long lastFlush = System.nanoTime();
	/** Held while a batch, or the end, is taken and sent: what goes up keeps the order it was made in. */
	private final Object sending = new Object();
	/** Given up: its source is not asked or cancelled again, and what it still makes is dropped. */
	private volatile boolean abandoned;

	/**
	 * @param call the id its {@code ELEMENTS} frames carry
	 * @param what how errors name an element
	 * @param executor where demand and cancelling run, one at a time
	 * @param up sends a frame of elements
	 * @param end sends the end, after the last frame: the error, or null when the sequence completed
	 */
	public SequenceOut(long call, String what, Executor executor, ShippedValues values, Consumer<byte[]> up,
			Consumer<@Nullable Throwable> end) {
		this.call = call;
		this.what = what;
		this.executor = executor;
		this.values = values;
		this.up = up;
		this.end = end;
	}

	/** Cancels, on the executor. */
	public void cancelOnExecutor() {
		executor.execute(() -> {
			if (!abandoned) {
				cancel();
			}
		});
	}

	/**
	 * Gives the sequence up without touching its source again, which the executor can no longer run safely (its
	 * object is stuck in another call): demand and cancels not yet run do nothing, and what the source still makes,
	 * its end included, goes nowhere. The caller answers the call itself.
	 */
	public void abandon() {
		abandoned = true;
	}

	/** The receiving side wants {@code n} more elements: asked for on the executor. */
	public void demand(long n) {
		executor.execute(() -> {
			if (abandoned) {
				return;
			}
			synchronized (this) {
				demanding = true;
			}
			try {
				ask(n);
			}
			finally {
				synchronized (this) {
					demanding = false;
				}
				flush();
			}
		});
	}

	@Override
	protected void hookOnNext(Object element) {
		if (abandoned) {
			return;
		}
		// A sequence's elements are never null.
		byte[] bytes = java.util.Objects.requireNonNull(values.write(element, what));
		boolean full;
		synchronized (this) {
			full = !batch.isEmpty() && batchBytes + bytes.length > BATCH_BYTES;
		}
		if (full) {
			// A large element goes up in a frame of its own.
			flush();
		}
		boolean now;
		synchronized (this) {
			batch.add(bytes);
			batchBytes += bytes.length;
			// What one demand makes at once goes up together, but no element waits for its batch longer than
			// a few milliseconds: slow elements go up one by one; an element made later goes up at once.
			now = !demanding || batch.size() >= BATCH || batchBytes >= BATCH_BYTES
					|| System.nanoTime() - lastFlush > MAX_WAIT_NANOS;
		}
		if (now) {
			flush();
		}
	}

	@Override
	protected void hookOnComplete() {
		if (abandoned) {
			return;
		}
		synchronized (sending) {
			flush();
			end.accept(null);
		}
	}

	@Override
	protected void hookOnError(Throwable error) {
		if (abandoned) {
			return;
		}
		synchronized (sending) {
			flush();
			end.accept(error);
		}
	}

	private void flush() {
		synchronized (sending) {
			List<byte[]> full;
			synchronized (this) {
				if (batch.isEmpty()) {
					return;
				}
				full = batch;
				batch = new ArrayList<>();
				batchBytes = 0;
				lastFlush = System.nanoTime();
			}
			up.accept(ElementsFrame.of(call, full).encode());
		}
	}
}
