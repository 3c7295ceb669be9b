/**
 * The service SPI: what a service of a run (queues, pools, rings, managers, and modules' own) gets from the
 * runtime it plugs into, {@link io.fiberjvm.runtime.RuntimeContext}; what a job-backed process runs,
 * {@link io.fiberjvm.runtime.ProcessTarget}; what a runtime-bound handle is while it travels,
 * {@link io.fiberjvm.runtime.HandleRef}; and a child's session with its parent's service,
 * {@link io.fiberjvm.runtime.ParentSession}.
 */
@NullMarked
package io.fiberjvm.runtime;

import org.jspecify.annotations.NullMarked;
