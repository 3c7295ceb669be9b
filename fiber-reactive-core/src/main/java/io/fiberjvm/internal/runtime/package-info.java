/**
 * The runtime of one process of a run ({@link io.fiberjvm.internal.runtime.FiberRuntime}), which every
 * service plugs into: where it listens, its connections, the routes it serves, the processes it starts; and
 * {@link io.fiberjvm.internal.runtime.WorkerMain}, the entry point of every job-backed process. Internal: not API.
 */
@NullMarked
package io.fiberjvm.internal.runtime;

import org.jspecify.annotations.NullMarked;
