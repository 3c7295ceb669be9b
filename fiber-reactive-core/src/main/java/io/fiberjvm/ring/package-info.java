/**
 * Rings of job-backed members that run one function with ranks and collectives, for data-parallel training:
 * {@link io.fiberjvm.ring.Ring}, from {@link io.fiberjvm.Fiber#ring(int)}.
 */
@NullMarked
package io.fiberjvm.ring;

import org.jspecify.annotations.NullMarked;
