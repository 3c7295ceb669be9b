package io.fiberjvm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

import org.jspecify.annotations.Nullable;

import io.fiberjvm.config.ConfigKey;
import io.fiberjvm.config.ConfigKeys;
import io.fiberjvm.config.FiberConfig;

/**
 * Configures and opens a {@link Fiber}: an immutable spec whose setters return a copy.
 *
 * <p>Values set here win over system properties, which win over {@code FIBER_*} environment variables,
 * which win over the {@code .fiberconfig} file. {@link #open()} resolves them all and fails with a
 * {@link io.fiberjvm.config.ConfigException} naming any unknown key or bad value.
 */
public final class FiberBuilder {

	private final Map<String, String> values;
	private final Properties systemProperties;
	private final Map<String, String> environment;
	private final @Nullable Path configFile;

	FiberBuilder(Map<String, String> values, Properties systemProperties, Map<String, String> environment, @Nullable Path configFile) {
		this.values = values;
		this.systemProperties = systemProperties;
		this.environment = environment;
		this.configFile = configFile;
	}

	static FiberBuilder standard() {
		return new FiberBuilder(Map.of(), System.getProperties(), System.getenv(), Path.of(FiberConfig.FILE_NAME));
	}

	/** Sets a key by its canonical name, for example {@code set("max-frame-size", "1Mi")}. */
	public FiberBuilder set(String key, String value) {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(value, "value");
		Map<String, String> copy = new LinkedHashMap<>(values);
		copy.put(key, value);
		return new FiberBuilder(Map.copyOf(copy), systemProperties, environment, configFile);
	}

	/** Sets a key. */
	public FiberBuilder set(ConfigKey<?> key, String value) {
		return set(Objects.requireNonNull(key, "key").name(), value);
	}

	/** Chooses the backend by name ({@code local}, {@code kubernetes}). */
	public FiberBuilder backend(String name) {
		return set(ConfigKeys.BACKEND, name);
	}

	/** How long a job-backed process may take to connect back. */
	public FiberBuilder startTimeout(Duration timeout) {
		return set(ConfigKeys.START_TIMEOUT, timeout.toMillis() + "ms");
	}

	/** Reads this file instead of {@code ./.fiberconfig}; {@code null} reads none. */
	public FiberBuilder configFile(@Nullable Path file) {
		return new FiberBuilder(values, systemProperties, environment, file);
	}

	/** Reads these system properties instead of the JVM's: for tests and embedding. */
	public FiberBuilder systemProperties(Properties properties) {
		Properties copy = new Properties();
		copy.putAll(Objects.requireNonNull(properties, "properties"));
		return new FiberBuilder(values, copy, environment, configFile);
	}

	/** Reads this environment instead of the process's: for tests and embedding. */
	public FiberBuilder environment(Map<String, String> variables) {
		return new FiberBuilder(values, systemProperties, Map.copyOf(variables), configFile);
	}

	/** Resolves the configuration without opening anything. */
	public FiberConfig config() {
		return FiberConfig.resolve(values, systemProperties, environment, configFile);
	}

	/** Opens the runtime. Nothing listens and nothing is started until a process needs it. */
	public Fiber open() {
		return Fiber.open(config());
	}
}
