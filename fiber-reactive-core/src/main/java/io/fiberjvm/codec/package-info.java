/**
 * How values travel between the processes of a run: {@link io.fiberjvm.codec.ShippedValues}, the one codec for
 * every value, function and target, behind the run's allow-list on both sides; {@link io.fiberjvm.codec.Codec},
 * what the transport's typed routes need of it. A failure is a {@link io.fiberjvm.codec.CodecException} that
 * names what could not travel and the fix.
 */
@NullMarked
package io.fiberjvm.codec;

import org.jspecify.annotations.NullMarked;
