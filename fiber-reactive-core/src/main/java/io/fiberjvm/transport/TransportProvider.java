package io.fiberjvm.transport;

import io.fiberjvm.spi.Prioritized;

/**
 * Makes {@link Transport}s; found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.fiberjvm.transport.TransportProvider}).
 */
public interface TransportProvider extends Prioritized {

	/** A transport whose every connection uses {@code settings}. */
	Transport create(TransportSettings settings);
}
