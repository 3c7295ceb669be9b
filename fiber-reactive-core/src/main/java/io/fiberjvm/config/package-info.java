/**
 * Configuration: every key typed and documented in {@link io.fiberjvm.config.ConfigKeys}, resolved by
 * {@link io.fiberjvm.config.FiberConfig} from the builder, {@code fiber.*} properties, {@code FIBER_*}
 * variables and {@code .fiberconfig}; an unknown key or a bad value is a
 * {@link io.fiberjvm.config.ConfigException} naming the key.
 */
@NullMarked
package io.fiberjvm.config;

import org.jspecify.annotations.NullMarked;
