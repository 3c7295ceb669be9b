package io.fiberjvm.ring;

import java.io.Serializable;

/**
 * What every member of a {@link Ring} runs (or runs first, as its initializer): a function of the
 * member's {@link RingContext}, shipped to each member like any job-backed target.
 *
 * <p>A lambda assigned to this type is serializable; everything it captures must be too. A target
 * that throws fails its member, and so the ring.
 */
@FunctionalInterface
public interface RingTarget extends Serializable {

	void run(RingContext ring) throws Exception;
}
