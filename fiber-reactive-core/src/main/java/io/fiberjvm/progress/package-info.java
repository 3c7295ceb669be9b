/**
 * Progress of a stream: {@link io.fiberjvm.progress.Progress} counts it and reports snapshots,
 * {@link io.fiberjvm.progress.ProgressBar} shows them.
 */
@NullMarked
package io.fiberjvm.progress;

import org.jspecify.annotations.NullMarked;
