/**
 * How a ring works: the parent's rendezvous, what each member runs, and the collectives between members.
 * Internal: not API.
 */
@NullMarked
package io.fiberjvm.internal.ring;

import org.jspecify.annotations.NullMarked;
