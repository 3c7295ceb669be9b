package io.fiberjvm;

import java.io.Serializable;
import java.util.function.BiFunction;

/**
 * A function of two arguments that can be shipped to another process: a {@link BiFunction} that is also
 * {@link Serializable}.
 *
 * @param <A> the first argument's type
 * @param <B> the second argument's type
 * @param <R> the result type
 */
@FunctionalInterface
public interface FiberBiFunction<A, B, R> extends BiFunction<A, B, R>, Serializable {
}
