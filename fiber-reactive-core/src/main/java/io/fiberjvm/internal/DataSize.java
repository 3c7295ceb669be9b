package io.fiberjvm.internal;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints byte sizes such as {@code 512Mi}, {@code 16MiB}, {@code 2g} or {@code 4096}.
 *
 * <p>Every unit is binary: {@code K}, {@code Ki}, {@code KB} and {@code KiB} all mean 1024 bytes,
 * the way Kubernetes and the JVM's {@code -Xmx} read them.
 */
public final class DataSize {

	private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*(?:([kmgt])i?)?b?", Pattern.CASE_INSENSITIVE);

	private DataSize() {
	}

	/**
	 * The number of bytes {@code text} names.
	 *
	 * @throws IllegalArgumentException naming the text when it is not a size
	 */
	public static long parse(String text) {
		Matcher m = SIZE.matcher(text.trim());
		if (!m.matches()) {
			throw new IllegalArgumentException("'" + text + "' is not a size (examples: 4096, 64Ki, 16MiB, 2g)");
		}
		long value = Long.parseLong(m.group(1));
		String unit = m.group(2) == null ? "" : m.group(2);
		int shift = switch (unit.toLowerCase(Locale.ROOT)) {
			case "" -> 0;
			case "k" -> 10;
			case "m" -> 20;
			case "g" -> 30;
			default -> 40;
		};
		if (shift > 0 && Long.numberOfLeadingZeros(value) <= shift) {
			throw new IllegalArgumentException("'" + text + "' is too large");
		}
		return value << shift;
	}

	/** Prints bytes with the largest binary unit that divides them exactly. */
	public static String format(long bytes) {
		String[] units = {"", "Ki", "Mi", "Gi", "Ti"};
		int i = 0;
		while (i < units.length - 1 && bytes != 0 && bytes % 1024 == 0) {
			bytes /= 1024;
			i++;
		}
		return bytes + units[i];
	}
}
