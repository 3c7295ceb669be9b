/**
 * The transport SPI over RSocket on TCP: authenticated setup, routes as metadata, frame limits, keep-alive, credits.
 */
@NullMarked
package io.fiberjvm.transport.rsocket;

import org.jspecify.annotations.NullMarked;
