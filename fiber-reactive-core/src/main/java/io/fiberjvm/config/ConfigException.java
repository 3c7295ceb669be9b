package io.fiberjvm.config;

import io.fiberjvm.FiberException;

/**
 * A configuration key that is unknown, or a value that does not parse for its key.
 *
 * <p>The message always names the key and where the value came from (builder, system
 * property, environment variable or {@code .fiberconfig} file), so the user can find it.
 */
public final class ConfigException extends FiberException {

	private static final long serialVersionUID = 1L;

	private final String key;

	public ConfigException(String key, String message) {
		super(message);
		this.key = key;
	}

	public ConfigException(String key, String message, Throwable cause) {
		super(message, cause);
		this.key = key;
	}

	/** The key, as the user wrote it, that this error is about. */
	public String key() {
		return key;
	}
}
