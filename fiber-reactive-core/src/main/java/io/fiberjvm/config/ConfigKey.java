package io.fiberjvm.config;

import java.util.Objects;
import java.util.function.Function;

/**
 * One typed, documented configuration key.
 *
 * <p>The canonical name is lower-case with dashes ({@code max-frame-size}). It is written
 * {@code fiber.max-frame-size} as a system property, {@code FIBER_MAX_FRAME_SIZE} in the
 * environment, and {@code max-frame-size} in a {@code .fiberconfig} file or a builder.
 *
 * @param <T> the type a value parses to
 */
public final class ConfigKey<T> {

	private final String name;
	private final String type;
	private final String defaultValue;
	private final String description;
	private final Function<String, T> parser;

	ConfigKey(String name, String type, String defaultValue, String description, Function<String, T> parser) {
		this.name = Objects.requireNonNull(name, "name");
		this.type = Objects.requireNonNull(type, "type");
		this.defaultValue = defaultValue;
		this.description = Objects.requireNonNull(description, "description");
		this.parser = Objects.requireNonNull(parser, "parser");
	}

	/** The canonical name, for example {@code max-frame-size}. */
	public String name() {
		return name;
	}

	/** The name as a system property: {@code fiber.} plus the name. */
	public String propertyName() {
		return "fiber." + name;
	}

	/** The name as an environment variable: {@code FIBER_} plus the name in upper case. */
	public String environmentName() {
		return "FIBER_" + name.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
	}

	/** The type, as documented (for example {@code duration} or {@code size}). */
	public String type() {
		return type;
	}

	/** The default, as text; {@code null} when the key has no default. */
	public String defaultValue() {
		return defaultValue;
	}

	/** One sentence on what the key does. */
	public String description() {
		return description;
	}

	/** Parses a value, or throws {@link IllegalArgumentException} saying why it is wrong. */
	T parse(String text) {
		return parser.apply(text);
	}

	@Override
	public String toString() {
		return name;
	}
}
