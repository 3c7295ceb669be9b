/**
 * Micrometer meters for pools, queues, managers and the transport, from the counters core keeps in its own terms.
 */
@NullMarked
package io.fiberjvm.micrometer;

import org.jspecify.annotations.NullMarked;
