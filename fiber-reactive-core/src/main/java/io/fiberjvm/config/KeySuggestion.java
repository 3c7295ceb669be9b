package io.fiberjvm.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * The configuration keys a name that is no key was probably meant to be: those one or two edits away (a letter
 * left out, added or changed, two neighbours swapped), or the same key written in another source's form
 * ({@code fiber.port} or {@code FIBER_PORT} where {@code port} belongs).
 */
final class KeySuggestion {

	/** Further than this many edits, a key is another key, not a typo of it. */
	static final int MAX_EDITS = 2;

	private KeySuggestion() {
	}

	/**
	 * The canonical names in {@code known} nearest to {@code name}, all at the same fewest edits, at most
	 * {@link #MAX_EDITS}; empty when none is that near.
	 */
	static List<String> nearest(String name, Collection<String> known) {
		String wanted = canonical(name);
		List<String> nearest = new ArrayList<>();
		int fewest = MAX_EDITS + 1;
		for (String key : known) {
			int edits = edits(wanted, key);
			if (edits > MAX_EDITS) {
				continue;
			}
			if (edits < fewest) {
				fewest = edits;
				nearest.clear();
			}
			if (edits == fewest) {
				nearest.add(key);
			}
		}
		return nearest;
	}

	/** {@code name} as a canonical name would be written: lower case, words joined by '-', no source's prefix. */
	private static String canonical(String name) {
		String lower = name.trim().toLowerCase(Locale.ROOT).replace('_', '-');
		if (lower.startsWith("fiber.") || lower.startsWith("fiber-")) {
			return lower.substring("fiber.".length());
		}
		return lower;
	}

	/**
	 * The fewest single-letter insertions, deletions, substitutions and swaps of neighbours that make {@code a}
	 * into {@code b}, each letter edited once at most; counting stops past {@link #MAX_EDITS}.
	 */
	static int edits(String a, String b) {
		if (Math.abs(a.length() - b.length()) > MAX_EDITS) {
			return MAX_EDITS + 1;
		}
		int[][] d = new int[a.length() + 1][b.length() + 1];
		for (int i = 0; i <= a.length(); i++) {
			d[i][0] = i;
		}
		for (int j = 0; j <= b.length(); j++) {
			d[0][j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			for (int j = 1; j <= b.length(); j++) {
				int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
				int best = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
				if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
					best = Math.min(best, d[i - 2][j - 2] + 1);
				}
				d[i][j] = best;
			}
		}
		return Math.min(d[a.length()][b.length()], MAX_EDITS + 1);
	}
}
