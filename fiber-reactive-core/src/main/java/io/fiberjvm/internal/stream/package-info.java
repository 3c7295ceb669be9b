/**
 * Sequences between processes: a publisher's elements sent in batches as fast as the receiving side asks,
 * which a manager's {@code Flux} methods and a pool's streaming tasks share. Internal.
 */
@NullMarked
package io.fiberjvm.internal.stream;

import org.jspecify.annotations.NullMarked;
