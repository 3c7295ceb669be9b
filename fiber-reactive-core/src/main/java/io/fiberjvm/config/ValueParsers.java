package io.fiberjvm.config;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fiberjvm.internal.DataSize;

/** The parsers of configuration values that are lists, pairs, choices and bounded numbers. */
final class ValueParsers {

	private ValueParsers() {
	}

	static int intIn(String text, int min, int max) {
		int value;
		try {
			value = Integer.parseInt(text.trim());
		}
		catch (NumberFormatException e) {
			throw new IllegalArgumentException("'" + text + "' is not a whole number");
		}
		if (value < min || value > max) {
			throw new IllegalArgumentException(value + " is outside " + min + ".." + max);
		}
		return value;
	}

	static long sizeIn(String text, long min, long max) {
		long value = DataSize.parse(text);
		if (value < min || value > max) {
			throw new IllegalArgumentException(text + " is outside " + DataSize.format(min) + ".." + DataSize.format(max));
		}
		return value;
	}

	static String oneOf(String text, String key, String... allowed) {
		String value = text.trim().toLowerCase(Locale.ROOT);
		if (!List.of(allowed).contains(value)) {
			throw new IllegalArgumentException("'" + text + "' is not one of " + String.join(", ", allowed) + " (" + key + ")");
		}
		return value;
	}

	/** key=value pairs joined with commas, in order. */
	static Map<String, String> pairs(String text, String key) {
		Map<String, String> pairs = new LinkedHashMap<>();
		for (String pair : splitOn(text, ",")) {
			int equals = pair.indexOf('=');
			if (equals <= 0) {
				throw new IllegalArgumentException("'" + pair + "' in " + key + " is not key=value");
			}
			pairs.put(pair.substring(0, equals).trim(), pair.substring(equals + 1).trim());
		}
		return Collections.unmodifiableMap(pairs);
	}

	static List<String> splitOn(String text, String separator) {
		if (text.isBlank()) {
			return List.of();
		}
		return List.copyOf(Arrays.stream(text.trim().split(separator)).map(String::trim).filter(s -> !s.isEmpty()).toList());
	}

	static List<String> serialPatterns(String text) {
		List<String> patterns = splitOn(text, ",");
		for (String p : patterns) {
			if (!p.matches("!?[A-Za-z_$][\\w$.]*(\\.\\*\\*?|\\*)?")) {
				throw new IllegalArgumentException("'" + p + "' is not a class pattern (examples: com.acme.Task, com.acme.*, com.acme.**)");
			}
		}
		return patterns;
	}
}
