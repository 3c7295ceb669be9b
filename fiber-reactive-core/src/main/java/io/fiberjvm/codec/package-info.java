/**
 * The codec SPI and how values travel between the processes of a run: {@link io.fiberjvm.codec.Codec} for
 * queue items, {@link io.fiberjvm.codec.ShippedValues} for functions, targets and task values behind the
 * run's allow-list. A failure is a {@link io.fiberjvm.codec.CodecException} that names what could not travel.
 */
@NullMarked
package io.fiberjvm.codec;

import org.jspecify.annotations.NullMarked;
