/**
 * Pools of worker processes that run shipped functions: {@link io.fiberjvm.pool.FiberPool}, the cluster's
 * {@code ExecutorService} as Monos and Fluxes, from {@link io.fiberjvm.Fiber#pool(int)}.
 */
@NullMarked
package io.fiberjvm.pool;

import org.jspecify.annotations.NullMarked;
