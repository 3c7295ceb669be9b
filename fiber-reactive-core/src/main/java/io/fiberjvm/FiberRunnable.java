package io.fiberjvm;

import java.io.Serializable;

/**
 * A target that can be shipped to another process: a {@link Runnable} that is also {@link Serializable}.
 *
 * <p>A lambda assigned to this type is serializable; everything it captures must be too. The receiving
 * process reads it behind an allow-list (see {@link io.fiberjvm.codec.ShippedValues}).
 */
@FunctionalInterface
public interface FiberRunnable extends Runnable, Serializable {
}
