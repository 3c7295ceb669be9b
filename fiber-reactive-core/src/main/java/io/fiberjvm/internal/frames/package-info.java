/**
 * The frames Fiber's services exchange between processes: a two-byte header (a
 * {@link io.fiberjvm.internal.frames.FrameKind} and flags, {@link io.fiberjvm.internal.frames.FrameHeaderCodec})
 * and one small codec per kind. Control messages are kinds of their own. A malformed frame, or one of a kind
 * that does not belong where it arrived, is a {@link io.fiberjvm.codec.CodecException} naming the kind.
 * Internal: not API.
 */
@NullMarked
package io.fiberjvm.internal.frames;

import org.jspecify.annotations.NullMarked;
