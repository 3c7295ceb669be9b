package io.fiberjvm.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * A resolved, immutable configuration: every key has a parsed value.
 *
 * <p>Sources, highest first: values given to the builder, system properties {@code fiber.*},
 * environment variables {@code FIBER_*}, then the {@code .fiberconfig} file (Java properties,
 * canonical key names), then each key's default. A key no source knows, or a value that does
 * not parse, is a {@link ConfigException} naming the key and its source.
 */
public final class FiberConfig {

	/** Environment variables with the {@code FIBER_} prefix that are wiring, not configuration. */
	public static final Set<String> RESERVED_ENVIRONMENT = Set.of("FIBER_RUN_SECRET");

	/**
	 * System properties under {@code fiber.} that are not configuration: a job-backed process's identity
	 * for its log lines ({@link io.fiberjvm.LogKeys}), set in every child.
	 */
	public static final Set<String> RESERVED_PROPERTIES = Set.of(io.fiberjvm.LogKeys.RUN, io.fiberjvm.LogKeys.PROCESS);

	/** The file read from the working directory when no other file is named. */
	public static final String FILE_NAME = ".fiberconfig";

	private final Map<ConfigKey<?>, Object> values;
	private final Map<ConfigKey<?>, String> texts;
	private final Map<ConfigKey<?>, String> sources;

	private FiberConfig(Map<ConfigKey<?>, Object> values, Map<ConfigKey<?>, String> texts, Map<ConfigKey<?>, String> sources) {
		this.values = values;
		this.texts = texts;
		this.sources = sources;
	}

	/** The defaults alone: no system property, environment or file is read. */
	public static FiberConfig defaults() {
		return resolve(Map.of(), new Properties(), Map.of(), null);
	}

	/**
	 * Resolves from every source.
	 *
	 * @param explicit values from the builder, by canonical name
	 * @param systemProperties usually {@link System#getProperties()}
	 * @param environment usually {@link System#getenv()}
	 * @param file the {@code .fiberconfig} file; {@code null} or a missing file is skipped
	 */
	public static FiberConfig resolve(Map<String, String> explicit, Properties systemProperties,
			Map<String, String> environment, @Nullable Path file) {
		Objects.requireNonNull(explicit, "explicit");
		Objects.requireNonNull(systemProperties, "systemProperties");
		Objects.requireNonNull(environment, "environment");
		Map<ConfigKey<?>, String> texts = new LinkedHashMap<>();
		Map<ConfigKey<?>, String> sources = new LinkedHashMap<>();

		// Lowest first, so a higher source overwrites.
		if (file != null && Files.isRegularFile(file)) {
			Properties fromFile = new Properties();
			try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
				fromFile.load(reader);
			}
			catch (IOException | IllegalArgumentException e) {
				throw new ConfigException(file.toString(), "cannot read configuration file " + file + ": " + e.getMessage(), e);
			}
			for (String name : fromFile.stringPropertyNames()) {
				put(texts, sources, keyNamed(name, name, "file " + file, key -> key), fromFile.getProperty(name), "file " + file + " (key " + name + ")");
			}
		}
		for (Map.Entry<String, String> e : new java.util.TreeMap<>(environment).entrySet()) {
			String var = e.getKey();
			if (!var.startsWith("FIBER_") || RESERVED_ENVIRONMENT.contains(var)) {
				continue;
			}
			String name = var.substring("FIBER_".length()).toLowerCase(java.util.Locale.ROOT).replace('_', '-');
			put(texts, sources, keyNamed(name, var, "environment", FiberConfig::environmentName), e.getValue(), "environment variable " + var);
		}
		for (String prop : new java.util.TreeSet<>(systemProperties.stringPropertyNames())) {
			if (!prop.startsWith("fiber.") || RESERVED_PROPERTIES.contains(prop)) {
				continue;
			}
			put(texts, sources, keyNamed(prop.substring("fiber.".length()), prop, "system properties", key -> "fiber." + key),
					systemProperties.getProperty(prop), "system property " + prop);
		}
		for (Map.Entry<String, String> e : explicit.entrySet()) {
			put(texts, sources, keyNamed(e.getKey(), e.getKey(), "builder", key -> key), e.getValue(), "builder (key " + e.getKey() + ")");
		}

		Map<ConfigKey<?>, Object> values = new LinkedHashMap<>();
		for (ConfigKey<?> key : ConfigKeys.all()) {
			String text = texts.get(key);
			String source = sources.get(key);
			if (text == null) {
				text = key.defaultValue();
				source = "default";
			}
			values.put(key, parse(key, text, source));
		}
		return new FiberConfig(Collections.unmodifiableMap(values), Collections.unmodifiableMap(texts),
				Collections.unmodifiableMap(sources));
	}

	/** {@code text} as a value of {@code key}; fails naming the key, where the text came from and the type expected. */
	private static Object parse(ConfigKey<?> key, String text, @Nullable String source) {
		try {
			return key.parse(text);
		}
		catch (IllegalArgumentException e) {
			throw new ConfigException(key.name(), "bad value for configuration key '" + key.name() + "' from " + source
					+ ": " + e.getMessage() + " (expected a " + key.type() + ")", e);
		}
	}

	/**
	 * The key {@code name} names; fails naming it as written, where, and the key it was probably meant to be,
	 * written as that source writes keys ({@code form}).
	 */
	private static ConfigKey<?> keyNamed(String name, String asWritten, String where, UnaryOperator<String> form) {
		ConfigKey<?> key = ConfigKeys.byName(name);
		if (key == null) {
			List<String> meant = KeySuggestion.nearest(asWritten, ConfigKeys.all().stream().map(ConfigKey::name).toList());
			String guess = meant.isEmpty() ? "; known keys: "
					: "; did you mean " + meant.stream().map(k -> "'" + form.apply(k) + "'").collect(Collectors.joining(" or "))
							+ "? Known keys: ";
			throw new ConfigException(asWritten, "unknown configuration key '" + asWritten + "' in " + where + guess
					+ ConfigKeys.all());
		}
		return key;
	}

	/** How the environment writes {@code key}: {@code FIBER_} and the name in upper case, words joined by '_'. */
	private static String environmentName(String key) {
		return "FIBER_" + key.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
	}

	private static void put(Map<ConfigKey<?>, String> texts, Map<ConfigKey<?>, String> sources, ConfigKey<?> key,
			String text, String source) {
		texts.put(key, Objects.requireNonNull(text, key.name()));
		sources.put(key, source);
	}

	/** The parsed value of {@code key}. */
	@SuppressWarnings("unchecked")
	public <T> T get(ConfigKey<T> key) {
		Objects.requireNonNull(key, "key");
		Object value = values.get(key);
		if (value == null) {
			throw new IllegalArgumentException("'" + key.name() + "' is not one of ConfigKeys; this configuration has no value for it");
		}
		return (T) value;
	}

	/**
	 * This configuration with {@code key} set to {@code text}, which children inherit: what a runtime decides for
	 * its whole run. Fails as {@link #resolve} does when the text is not a value of the key.
	 */
	public FiberConfig with(ConfigKey<?> key, String text, String source) {
		Objects.requireNonNull(key, "key");
		Objects.requireNonNull(text, "text");
		Objects.requireNonNull(source, "source");
		Object value = parse(key, text, source);
		Map<ConfigKey<?>, Object> newValues = new LinkedHashMap<>(values);
		Map<ConfigKey<?>, String> newTexts = new LinkedHashMap<>(texts);
		Map<ConfigKey<?>, String> newSources = new LinkedHashMap<>(sources);
		newValues.put(key, value);
		newTexts.put(key, text);
		newSources.put(key, source);
		return new FiberConfig(Collections.unmodifiableMap(newValues), Collections.unmodifiableMap(newTexts),
				Collections.unmodifiableMap(newSources));
	}

	/** Where the value of {@code key} came from, for messages: "default", "environment variable FIBER_PORT", .... */
	public String sourceOf(ConfigKey<?> key) {
		return sources.getOrDefault(key, "default");
	}

	/**
	 * The environment that hands this configuration to a child: every value that did not come
	 * from a default, as {@code FIBER_*} variables. What names this process alone is left out: the
	 * port (a child that opens a runtime of its own must not collide with its parent's listening
	 * port), the advertised address, the pod name, and the kubeconfig (a job pod finds its cluster
	 * through its service account; the parent's file is not there).
	 */
	public Map<String, String> toChildEnvironment() {
		Map<String, String> env = new LinkedHashMap<>();
		texts.forEach((key, text) -> {
			if (key != ConfigKeys.PORT && key != ConfigKeys.ADVERTISE_HOST && key != ConfigKeys.POD_NAME
					&& key != ConfigKeys.KUBECONFIG) {
				env.put(key.environmentName(), text);
			}
		});
		return env;
	}

	@Override
	public String toString() {
		return "FiberConfig" + texts;
	}
}
