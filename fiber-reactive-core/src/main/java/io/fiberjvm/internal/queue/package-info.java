/**
 * How a queue works: its host ({@code QueueHost}) in the process that made it, served on routes of its own,
 * and handles elsewhere that reach it over a connection; the producer's and consumer's sides of a session.
 * Internal: not API.
 */
@NullMarked
package io.fiberjvm.internal.queue;

import org.jspecify.annotations.NullMarked;
