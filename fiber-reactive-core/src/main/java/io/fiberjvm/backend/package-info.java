/**
 * The backend SPI: where job-backed processes run. A {@link io.fiberjvm.backend.Backend} makes a
 * {@link io.fiberjvm.backend.Job} from a {@link io.fiberjvm.backend.JobSpec} and reports its statuses as they
 * change, driven by events; providers are found with {@link java.util.ServiceLoader} and a priority.
 */
@NullMarked
package io.fiberjvm.backend;

import org.jspecify.annotations.NullMarked;
