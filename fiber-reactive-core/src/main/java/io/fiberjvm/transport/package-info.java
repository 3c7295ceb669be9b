/**
 * The transport SPI, shaped like RSocket: request-response, request-stream, request-channel and
 * fire-and-forget over named routes, carrying bytes, between runtimes that proved the run's secret.
 * {@code fiber-rsocket-transport} implements it; {@link io.fiberjvm.transport.Routes} is the router most code wants.
 */
@NullMarked
package io.fiberjvm.transport;

import org.jspecify.annotations.NullMarked;
