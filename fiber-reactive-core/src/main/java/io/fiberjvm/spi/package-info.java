/**
 * What every kind of provider shares: a name and a priority ({@link io.fiberjvm.spi.Prioritized}), by which
 * {@link java.util.ServiceLoader} finds are chosen.
 */
@NullMarked
package io.fiberjvm.spi;

import org.jspecify.annotations.NullMarked;
