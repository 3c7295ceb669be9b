/**
 * Queues and pipes between the processes of a run: {@link io.fiberjvm.queue.FiberQueue}, the cluster's
 * {@code BlockingQueue} as Monos and Fluxes, with demand that crosses processes.
 */
@NullMarked
package io.fiberjvm.queue;

import org.jspecify.annotations.NullMarked;
