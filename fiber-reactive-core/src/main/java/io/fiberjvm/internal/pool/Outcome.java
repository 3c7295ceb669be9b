package io.fiberjvm.internal.pool;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.internal.frames.Answer;

/**
 * How an attempt ended: its worker's answer, or the error that ended it without one.
 *
 * @param worker the worker it ran on
 * @param answer the worker's answer, or null
 * @param error why there is no answer (the worker was lost), or null
 */
record Outcome(String worker, @Nullable Answer answer, @Nullable Throwable error) {
}
