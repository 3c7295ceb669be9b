/**
 * Fiber for the JVM: a program opens a {@link io.fiberjvm.Fiber} and uses job-backed processes, queues,
 * pools and rings through it, as {@code java.util.concurrent} uses one machine's cores.
 *
 * <p>Every remote operation is a {@code Mono} or a {@code Flux}, lazy until subscribed; what ends once
 * ({@link io.fiberjvm.Fiber}, pools, queues, managers) is an {@link io.fiberjvm.AsyncCloseable}. Nothing in
 * this package or the primitives' packages accepts or returns null unless it says so.
 */
@NullMarked
package io.fiberjvm;

import org.jspecify.annotations.NullMarked;
