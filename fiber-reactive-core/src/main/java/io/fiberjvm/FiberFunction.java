package io.fiberjvm;

import java.io.Serializable;
import java.util.function.Function;

/**
 * A function that can be shipped to another process: a {@link Function} that is also {@link Serializable}.
 *
 * <p>A lambda assigned to this type is serializable; everything it captures must be too. The receiving
 * process reads it behind an allow-list (see {@link io.fiberjvm.codec.ShippedValues}).
 *
 * @param <T> the argument type
 * @param <R> the result type
 */
@FunctionalInterface
public interface FiberFunction<T, R> extends Function<T, R>, Serializable {
}
