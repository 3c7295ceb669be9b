package io.fiberjvm.backend;

import io.fiberjvm.config.FiberConfig;
import io.fiberjvm.spi.Prioritized;

/**
 * Makes {@link Backend}s; found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.fiberjvm.backend.BackendProvider}).
 */
public interface BackendProvider extends Prioritized {

	/** A backend configured by {@code config}. */
	Backend create(FiberConfig config);
}
