/**
 * Values shared once per JVM ({@link io.fiberjvm.Shared}): the service that hosts a runtime's shared values and
 * keeps its copies of others', and the handle's travelling form.
 */
@NullMarked
package io.fiberjvm.internal.share;

import org.jspecify.annotations.NullMarked;
