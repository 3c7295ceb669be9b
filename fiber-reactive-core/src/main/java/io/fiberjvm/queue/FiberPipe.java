package io.fiberjvm.queue;

import java.util.Objects;

/**
 * Two connected ends, each usable from a different process: Fiber's {@code Pipe}.
 *
 * <p>Duplex: each end sends to the other and receives from it. One-way: {@link #left()} receives what
 * {@link #right()} sends. Each direction is a bounded {@link FiberQueue} hosted by the process that made
 * the pipe.
 *
 * @param left the first end (the receiving end of a one-way pipe)
 * @param right the second end (the sending end of a one-way pipe)
 * @param <T> the type of items
 */
public record FiberPipe<T>(PipeEnd<T> left, PipeEnd<T> right) {

	public FiberPipe {
		Objects.requireNonNull(left, "left");
		Objects.requireNonNull(right, "right");
	}
}
