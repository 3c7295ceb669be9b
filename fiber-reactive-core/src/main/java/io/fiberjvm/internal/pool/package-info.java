/**
 * How a pool works: {@code ProcessPool} (the calls a user makes) over one
 * {@code PoolCore} that wires a {@code PoolLifecycle} (a state machine), a {@code TaskCodec} (functions,
 * arguments out, results back), a {@code Dispatcher} (queue, pending table, chunks) and a {@code WorkerFleet}
 * (start, replace, resize, retire); {@code PoolWorker} is what a worker process runs. Internal: not API.
 */
@NullMarked
package io.fiberjvm.internal.pool;

import org.jspecify.annotations.NullMarked;
