package io.fiberjvm.internal.runtime;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

import io.fiberjvm.config.ConfigException;
import io.fiberjvm.spi.Prioritized;

/** Finds providers with {@link ServiceLoader} and picks one by name or by priority. */
final class Providers {

	private Providers() {
	}

	/**
	 * The provider named {@code wanted}, or when {@code wanted} is empty the available one with the
	 * highest priority.
	 *
	 * @param configKey the configuration key that chose {@code wanted}, named in errors
	 * @throws ConfigException when no provider has that name, or none is available
	 */
	static <P extends Prioritized> P select(Class<P> type, String wanted, String configKey, String hint) {
		List<P> found = new ArrayList<>();
		ServiceLoader.load(type, loader()).forEach(found::add);
		found.sort(Comparator.comparingInt(Prioritized::priority).reversed());
		if (!wanted.isEmpty()) {
			for (P p : found) {
				if (p.name().equals(wanted)) {
					return p;
				}
			}
			throw new ConfigException(configKey, "configuration key '" + configKey + "' names " + type.getSimpleName()
					+ " '" + wanted + "', but only " + names(found) + " are on the classpath. " + hint);
		}
		for (P p : found) {
			if (p.isAvailable()) {
				return p;
			}
		}
		throw new ConfigException(configKey, "no available " + type.getSimpleName() + " on the classpath (found "
				+ names(found) + "). " + hint);
	}

	private static List<String> names(List<? extends Prioritized> found) {
		return found.stream().map(Prioritized::name).toList();
	}

	private static ClassLoader loader() {
		ClassLoader context = Thread.currentThread().getContextClassLoader();
		return context != null ? context : Providers.class.getClassLoader();
	}
}
